import { existsSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { Controller, Get, Logger, OnModuleInit, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiError } from '../platform/errors/api-error';
import { writeProblem } from '../platform/errors/problem-details.filter';
import { setPageSecurityHeaders } from './security-headers';
import { WEB_OUT_DIR, WEB_PAGES } from './web-pages';

/** Repository root from both src/web (tests) and dist/web (the build). */
export const WEB_ROOT = resolve(__dirname, '..', '..', WEB_OUT_DIR);

/** Asset names the build writes: one flat folder, no path can be spelled through it. */
const ASSET_NAME = /^[a-z0-9][a-z0-9_-]*\.(js|css|svg|png)$/;
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/**
 * The public pages (search, status, simulator) and their assets, built by scripts/build-web.js. Explicit routes rather
 * than a static catch-all, so that every other path keeps its problem+json 404 (or 405).
 * Not under /api/public/v1: loading a page counts nothing against the rate limit; the
 * pages' own API calls do.
 */
@ApiExcludeController()
@Controller()
export class WebController implements OnModuleInit {
  onModuleInit(): void {
    const missing = WEB_PAGES.filter((p) => !existsSync(join(WEB_ROOT, `${p.name}.html`)));
    if (missing.length > 0) {
      new Logger(WebController.name).warn(
        `web pages not built (${missing.map((p) => p.path).join(', ')} missing under ${WEB_ROOT}): run npm run build`,
      );
    }
  }

  @Get(WEB_PAGES.map((p) => p.path))
  page(@Req() req: Request, @Res() res: Response): void {
    const path = req.path.replace(/(.)\/+$/, '$1');
    const page = WEB_PAGES.find((p) => p.path === path)!;
    send(req, res, join(WEB_ROOT, `${page.name}.html`), 'text/html; charset=utf-8');
  }

  @Get('assets/:file')
  asset(@Param('file') file: string, @Req() req: Request, @Res() res: Response): void {
    if (!ASSET_NAME.test(file)) throw new ApiError('not_found', `There is no asset named ${file.slice(0, 100)}.`);
    send(req, res, join(WEB_ROOT, 'assets', file), TYPES[extname(file)]);
  }
}

function send(req: Request, res: Response, file: string, type: string): void {
  // Either a wrong name, or the pages were never built (tsc alone does not build them).
  if (!existsSync(file)) throw sendFailure(req, 404);
  setPageSecurityHeaders(res);
  res.sendFile(
    file,
    { cacheControl: false, headers: { 'Content-Type': type } },
    (err?: Error & { status?: number }) => {
      if (err && !res.headersSent) writeProblem(req, res, sendFailure(req, err.status));
    },
  );
}

/** Why a page or asset was not sent, by sendFile's status: a condition or a range the file does not meet, else no file. */
function sendFailure(req: Request, status: number | undefined): ApiError {
  const at = req.path.slice(0, 100);
  if (status === 412) return new ApiError('precondition_failed', `${at} does not meet the request's condition.`);
  if (status === 416) return new ApiError('range_not_satisfiable', `The range asked for lies past the end of ${at}.`);
  return new ApiError('not_found', `There is nothing at ${at}.`);
}
