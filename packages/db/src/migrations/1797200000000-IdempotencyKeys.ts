// Idempotency-Key (docs/api-guide.md#idempotent-retries): each organisation's keys with the request they
// were first used for and its stored answer, kept 24 hours; the index on expiry serves the pruning.
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class IdempotencyKeys1797200000000 implements MigrationInterface {
  name = 'IdempotencyKeys1797200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "idempotency_keys" ("org_id" integer NOT NULL, "key" text NOT NULL, "method" text NOT NULL, "target" text NOT NULL, "body_sha256" bytea NOT NULL, "locked_until" TIMESTAMP(3) WITH TIME ZONE, "response_status" smallint, "response_headers" jsonb, "response_body" bytea, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_idempotency_keys" PRIMARY KEY ("org_id", "key"))`,
    );
    await queryRunner.query(`CREATE INDEX "idempotency_keys_expires" ON "idempotency_keys" ("expires_at")`);
    await queryRunner.query(
      `ALTER TABLE "idempotency_keys" ADD CONSTRAINT "FK_1eaac38e984e753ad348af8d3f9" FOREIGN KEY ("org_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "idempotency_keys"`);
  }
}
