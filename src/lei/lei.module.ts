import { Module } from '@nestjs/common';
import { GleifModule } from '../registers/lei/gleif.module';
import { LeiEnrichment } from './lei-enrichment.service';
import { LeiController } from './lei.controller';
import { LeiService } from './lei.service';

/**
 * GLEIF's Global LEI Index: GET /lei/{lei} (and the MCP tool lookup_lei), and the `lei` of
 * search results and company lookups (LeiEnrichment, used by search). Its health is the
 * status module's, probed like a register's.
 */
@Module({
  imports: [GleifModule],
  controllers: [LeiController],
  providers: [LeiService, LeiEnrichment],
  exports: [LeiService, LeiEnrichment],
})
export class LeiModule {}
