import { MigrationInterface, QueryRunner } from 'typeorm';

/** A watch belongs to an account: it goes with it, and no event is ever addressed to an account that is gone. */
export class WatchBelongsToAccount1763790001000 implements MigrationInterface {
  name = 'WatchBelongsToAccount1763790001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE watch ADD CONSTRAINT watch_account FOREIGN KEY (account_id) REFERENCES account (id) ON DELETE CASCADE`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE watch DROP CONSTRAINT watch_account`);
  }
}
