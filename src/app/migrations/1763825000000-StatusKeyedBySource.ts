import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The status tables hold the LEI index beside the registers: `country` becomes text, so that it
 * takes 'LEI' as well as a country code (char(2) cannot). A char value cast to text loses its
 * padding; no code is longer than two characters today, so the rows stay as they are.
 */
export class StatusKeyedBySource1763825000000 implements MigrationInterface {
  name = 'StatusKeyedBySource1763825000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE probe ALTER COLUMN country TYPE text;
      ALTER TABLE register_state ALTER COLUMN country TYPE text;
      ALTER TABLE register_status_transition ALTER COLUMN country TYPE text;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DELETE FROM probe WHERE length(country) <> 2;
      DELETE FROM register_state WHERE length(country) <> 2;
      DELETE FROM register_status_transition WHERE length(country) <> 2;
      ALTER TABLE probe ALTER COLUMN country TYPE char(2);
      ALTER TABLE register_state ALTER COLUMN country TYPE char(2);
      ALTER TABLE register_status_transition ALTER COLUMN country TYPE char(2);
    `);
  }
}
