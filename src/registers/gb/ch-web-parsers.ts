import type * as Cheerio from 'cheerio';
import type { Officer } from '../connector';
import { UpstreamError } from '../upstream-error';
import type { ChRecord } from './ch-api-parsers';
import {
  CESSATION_LABELS,
  COMPANY_STATUS_CATEGORIES,
  COMPANY_STATUS_LABELS,
  companyStatusCodeOfLabel,
} from './ch-constants';

/**
 * Cheerio, loaded when a page is first parsed: 0.2 s at the start of every process that loads
 * the register table (the importer reads no web page).
 */
function cheerio(): typeof Cheerio {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('cheerio') as typeof Cheerio;
}

/*
 * Parsers of Companies House's public website (find-and-update.company-information.service.gov.uk).
 * The markup they read is that of CH's own page templates in companieshouse/ch.gov.uk:
 * templates/search/results.html.tx and noresults.html.tx (search), templates/company/view.html.tx
 * with includes/company/page_header.tx (company overview), templates/company/officers/list.html.tx
 * (officers). They read only element ids and classes those templates set, and refuse a page
 * that has none of them (an error page, a maintenance page) instead of answering "no result".
 */

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** "2 July 2002" / " 2 July 2002" (CH's isodate_as_string) → "2002-07-02"; null otherwise. */
export function parseChDate(value: string | null | undefined): string | null {
  const m = /(\d{1,2})\s+([A-Za-z]+)\s+(\d{4})/.exec(value ?? '');
  if (!m) return null;
  const month = MONTHS.indexOf(m[2].toLowerCase());
  const day = Number(m[1]);
  if (month < 0 || day < 1 || day > 31) return null;
  return `${m[3]}-${String(month + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function squash(value: string | undefined | null): string {
  return (value ?? '').replace(/\s+/g, ' ').trim();
}

const BIRTH =
  /\b(?:Incorporated|Registered|Formed|Opened|First UK establishment opened) on\s+(\d{1,2}\s+[A-Za-z]+\s+\d{4})/;
const CESSATION = /\b(Dissolved|Closed|Removed) on\s+(\d{1,2}\s+[A-Za-z]+\s+\d{4})/;

/**
 * The results page of `/search/companies?q=`. Each result gives a name, a number (from the
 * link), a description ("04475590 - Incorporated on 2 July 2002" or "… - Dissolved on …") and
 * the address as one line. The page states a status only for ended companies; otherwise the
 * status is left unknown rather than guessed.
 */
export function parseWebSearch(html: string): ChRecord[] {
  const $ = cheerio().load(html);
  if ($('#no-results').length) return [];
  if (!$('#services-information-results').length && !$('#results').length) {
    throw UpstreamError.invalidResponse('Companies House sent a page that is not a search results page');
  }
  const records: ChRecord[] = [];
  $('li.type-company').each((_, li) => {
    const link = $(li).find('h3 a').first();
    const number = /\/company\/([A-Z0-9]{8})\b/i.exec(link.attr('href') ?? '')?.[1]?.toUpperCase();
    const name = squash(link.text());
    if (!number || !name)
      throw UpstreamError.invalidResponse('Companies House sent a search result without a company link');
    const description = squash($(li).find('p.meta.crumbtrail').not('.inset').first().text());
    const address = squash($(li).children('p').not('.meta').last().text()) || null;
    const ended = CESSATION.exec(description);
    const code = ended
      ? (Object.keys(CESSATION_LABELS).find((k) => CESSATION_LABELS[k].startsWith(ended[1])) ?? null)
      : null;
    records.push({
      name,
      registrationNumber: number,
      country: 'GB',
      status: code ? COMPANY_STATUS_LABELS[code] : null,
      statusCategory: code ? COMPANY_STATUS_CATEGORIES[code] : 'unknown',
      legalForm: null,
      address,
      city: null,
      incorporationDate: parseChDate(BIRTH.exec(description)?.[1]),
      extra: ended ? { dateOfCessation: parseChDate(ended[2]) } : {},
    });
  });
  return records;
}

/**
 * The company overview page `/company/{number}`. The website gives the registered office as
 * one line (its own address_as_string), so `city` is left null rather than guessed from it.
 * With `requested`, a page of another company is refused.
 */
export function parseWebCompany(html: string, requested?: string): ChRecord {
  const $ = cheerio().load(html);
  const number = squash($('#company-number strong').first().text()).toUpperCase();
  const name = squash($('.company-header .heading-xlarge').first().text());
  if (!number || !name)
    throw UpstreamError.invalidResponse('Companies House sent a page that is not a company overview');
  if (requested !== undefined && number !== requested)
    throw UpstreamError.invalidResponse(`Companies House answered ${requested} with company ${number}`);
  const status = squash($('#company-status').first().text()) || null;
  const code = status ? companyStatusCodeOfLabel(status.split('—')[0]) : null;
  const cessation = parseChDate($('#cessation-date').first().text());
  return {
    name,
    registrationNumber: number,
    country: 'GB',
    status,
    statusCategory: code ? (COMPANY_STATUS_CATEGORIES[code] ?? 'unknown') : 'unknown',
    legalForm: squash($('#company-type-value').first().text() || $('#company-type').first().text()) || null,
    address: squash($('#roa-address').first().text()) || null,
    city: null,
    incorporationDate: parseChDate($('#company-creation-date').first().text()),
    extra: cessation ? { dateOfCessation: cessation } : {},
  };
}

const CORPORATE_IDENTIFICATION =
  /Registered in a (?:Non )?European Economic Area|UK Limited Company|Other Corporate Body or Firm|Corporate Partner/i;

/**
 * The officers page `/company/{number}/officers`: one `appointment-N` block per officer with
 * `officer-name-N`, `officer-role-N` (CH's role label), `officer-appointed-on-N`,
 * `officer-resigned-on-N`. The page does not name the role code, so a corporate officer is
 * recognised by its identification heading or, lacking one, by having neither a date of
 * birth nor a "SURNAME, Forenames" name.
 */
export function parseWebOfficers(html: string): { officers: Officer[]; nextPage: string | null } {
  const $ = cheerio().load(html);
  const list = $('.appointments-list');
  if (!list.length && !$('#company-appointments').length) {
    throw UpstreamError.invalidResponse('Companies House sent a page that is not an officers page');
  }
  const officers: Officer[] = [];
  list.children('div').each((_, block) => {
    const n = /\bappointment-(\d+)\b/.exec($(block).attr('class') ?? '')?.[1];
    if (!n) return;
    const name = squash($(block).find(`#officer-name-${n}`).text());
    const role = squash($(block).find(`#officer-role-${n}`).text());
    if (!name || !role) throw UpstreamError.invalidResponse('Companies House sent an officer without a name or role');
    const hasBirthDate = $(block).find(`#officer-date-of-birth-${n}`).length > 0;
    const identified = $(block)
      .find('h3')
      .toArray()
      .some((h) => CORPORATE_IDENTIFICATION.test($(h).text()));
    const company = identified || (!hasBirthDate && !name.includes(','));
    officers.push({
      name,
      role,
      kind: company ? 'company' : 'person',
      appointedOn: parseChDate($(block).find(`#officer-appointed-on-${n}`).text()),
      resignedOn: parseChDate($(block).find(`#officer-resigned-on-${n}`).text()),
    });
  });
  return { officers, nextPage: $('#next-page').attr('href') ?? null };
}
