import type { CountryCode } from '../../registers/register-table';
import { recognizeAuIdentifier } from './au';
import { recognizeCaIdentifier } from './ca';
import { recognizeDkIdentifier } from './dk';
import { recognizeFrIdentifier } from './fr';
import { recognizeGbIdentifier } from './gb';
import type { IdentifierMatch, IdentifierRecognizer } from './identifier';
import { recognizeNoIdentifier } from './no';

const RECOGNIZERS: Record<CountryCode, IdentifierRecognizer> = {
  GB: recognizeGbIdentifier,
  AU: recognizeAuIdentifier,
  CA: recognizeCaIdentifier,
  FR: recognizeFrIdentifier,
  DK: recognizeDkIdentifier,
  NO: recognizeNoIdentifier,
};

/** Decides offline whether q is a registration number of the country, a malformed one, or a name. */
export function recognizeIdentifier(country: CountryCode, query: string): IdentifierMatch {
  return RECOGNIZERS[country](query);
}

export type { IdentifierMatch } from './identifier';
