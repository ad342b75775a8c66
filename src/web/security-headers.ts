import type { Response } from 'express';

/**
 * Everything a page needs comes from this origin as files: no inline script or style, no
 * other origin. The pages' fetches go to the same origin's /api/public/v1.
 */
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Set on the pages and their assets only: the Swagger page at /docs needs inline code of its own. */
export function setPageSecurityHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', PAGE_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // Record links lead to the registers; they need not learn what was searched here.
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY'); // frame-ancestors for browsers that predate it
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  // Revalidate every time (ETag): a deploy is seen at once, and an unchanged file costs a 304.
  res.setHeader('Cache-Control', 'no-cache');
}
