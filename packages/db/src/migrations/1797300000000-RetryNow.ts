// "Retry now" (docs/api-guide.md#redelivery-and-retry-now): a retrying event's scheduled retry made at
// once, by hand. The event keeps its one place in the delivery queue (next_attempt_at, moved to now); this
// column says the attempt was asked for, so the worker logs it as a redelivery. Null on every other row
// (no default to write into the existing ones).
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class RetryNow1797300000000 implements MigrationInterface {
  name = 'RetryNow1797300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "events" ADD "retry_asked_at" TIMESTAMP(3) WITH TIME ZONE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "events" DROP COLUMN "retry_asked_at"`);
  }
}
