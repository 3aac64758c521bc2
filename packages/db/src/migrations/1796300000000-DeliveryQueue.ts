// The events table as the webhook delivery queue (docs/decisions.md, "Webhooks: one queue for every
// attempt"): each PENDING event carries the time of its next attempt, and a partial index holds exactly the
// events still to deliver, in that order, for the worker's `FOR UPDATE SKIP LOCKED` batches.
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class DeliveryQueue1796300000000 implements MigrationInterface {
  name = 'DeliveryQueue1796300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // now() is evaluated once here, so the existing rows take it without a rewrite of the table: every
    // event PENDING at the migration is due at once (a retry waiting in pg-boss comes a little early).
    await queryRunner.query(
      `ALTER TABLE "events" ADD "next_attempt_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now()`,
    );
    await queryRunner.query(
      `CREATE INDEX "events_due" ON "events" ("next_attempt_at") WHERE "status" = 'PENDING'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "events_due"`);
    await queryRunner.query(`ALTER TABLE "events" DROP COLUMN "next_attempt_at"`);
  }
}
