import { Module } from '@nestjs/common';
import { WebController } from './web.controller';

/** The pages (search, status, simulator), built by `npm run build` and served from dist/public. */
@Module({ controllers: [WebController] })
export class WebModule {}
