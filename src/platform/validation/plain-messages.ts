import { z } from 'zod';
import type { $ZodRawIssue } from 'zod/v4/core';

type Issue = $ZodRawIssue;

const NOUNS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  bigint: 'a number',
  date: 'a date',
};
const UNITS: Record<string, string> = { string: 'characters', array: 'items', set: 'items', file: 'bytes' };

function received(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'a list';
  if (typeof input === 'object') return 'an object';
  if (typeof input === 'string') return 'text';
  return typeof input === 'undefined' ? 'nothing' : `${typeof input === 'number' ? 'a number' : typeof input}`;
}

function bound(issue: { origin?: string; inclusive?: boolean }, value: unknown, least: boolean): string {
  const unit = UNITS[issue.origin ?? ''];
  const n = typeof value === 'bigint' ? value.toString() : String(value);
  if (unit) return `must have at ${least ? 'least' : 'most'} ${n} ${n === '1' ? unit.replace(/s$/, '') : unit}`;
  if (issue.inclusive === false) return `must be ${least ? 'more' : 'less'} than ${n}`;
  return `must be at ${least ? 'least' : 'most'} ${n}`;
}

/**
 * zod's messages in plain sentences ("must have at least 10 characters", not "Too small:
 * expected string to have >=10 characters"). Schemas that give their own message keep it.
 */
export function plainMessage(issue: Issue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      // Text coerced to a number that is none (NaN), or a fraction where a whole number is wanted.
      if (typeof issue.input === 'number')
        return Number.isFinite(issue.input) ? `must be ${NOUNS[issue.expected] ?? issue.expected}` : 'must be a number';
      return `must be ${NOUNS[issue.expected] ?? issue.expected}, not ${received(issue.input)}`;
    case 'too_small':
      if (issue.origin === 'string' && issue.minimum === 1) return 'must not be empty';
      return bound(issue, issue.minimum, true);
    case 'too_big':
      return bound(issue, issue.maximum, false);
    case 'invalid_value':
      return `must be one of ${issue.values.map((v: unknown) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format':
      return issue.format === 'regex' ? 'is not in the expected format' : `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`;
    default:
      return undefined;
  }
}

z.config({ customError: plainMessage });
