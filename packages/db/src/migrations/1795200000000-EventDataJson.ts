// Event data as json rather than jsonb: jsonb reorders keys, and a webhook body should list the record's
// fields in the order the API guide does.
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class EventDataJson1795200000000 implements MigrationInterface {
  name = 'EventDataJson1795200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "events" ALTER COLUMN "data" TYPE json USING "data"::json`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "events" ALTER COLUMN "data" TYPE jsonb USING "data"::jsonb`);
  }
}
