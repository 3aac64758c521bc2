// Operators as people (docs/operators.md): their accounts, console sessions, personal API tokens and the
// sign-in attempt counters; the audit log gains the operator who acted.
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Operators1795700000000 implements MigrationInterface {
  name = 'Operators1795700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "operators" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "email" text NOT NULL, "name" text NOT NULL, "role" text NOT NULL, "password_hash" text, "totp_secret_ciphertext" text, "totp_confirmed_at" TIMESTAMP(3) WITH TIME ZONE, "totp_last_step" bigint, "setup_token_hash" text, "setup_expires_at" TIMESTAMP(3) WITH TIME ZONE, "oidc_issuer" text, "oidc_subject" text, "disabled_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_3d02b3692836893720335a79d1b" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_1570f3d85c3ff08bb99815897a" ON "operators"  ("email") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_76a789d8c4408548aff1949162" ON "operators"  ("setup_token_hash") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "operators_oidc_identity" ON "operators"  ("oidc_issuer", "oidc_subject") `,
    );
    await queryRunner.query(
      `CREATE TABLE "operator_sessions" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "operator_id" uuid NOT NULL, "token_hash" text NOT NULL, "method" text NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "last_seen_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "second_factor_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "revoked_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_73b13bd07c5666193c04d434505" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_a1f1a9bd7a2f93c3f602b8d920" ON "operator_sessions"  ("operator_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_16b102b1ae15db8ee5ce6b3a1b" ON "operator_sessions"  ("token_hash") `,
    );
    await queryRunner.query(
      `CREATE TABLE "operator_tokens" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "operator_id" uuid NOT NULL, "token_hash" text NOT NULL, "label" text NOT NULL DEFAULT '', "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "last_used_at" TIMESTAMP(3) WITH TIME ZONE, "second_factor_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "revoked_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_f26fbf5aa89efd357c86c7d19db" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_808d18576980d049c2bc313d94" ON "operator_tokens"  ("operator_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_8c1996b67e9f31ab67847b8dd8" ON "operator_tokens"  ("token_hash") `,
    );
    await queryRunner.query(
      `CREATE TABLE "sign_in_attempts" ("key" text NOT NULL, "window_start" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "attempts" integer NOT NULL, CONSTRAINT "PK_df3d09968fb1f35413047cd2010" PRIMARY KEY ("key"))`,
    );
    await queryRunner.query(`ALTER TABLE "audit_log" ADD "operator_id" uuid`);
    await queryRunner.query(`CREATE INDEX "IDX_57e69a40b40f5ccba6b22f79e9" ON "audit_log"  ("operator_id") `);
    await queryRunner.query(
      `ALTER TABLE "operator_sessions" ADD CONSTRAINT "FK_a1f1a9bd7a2f93c3f602b8d9202" FOREIGN KEY ("operator_id") REFERENCES "operators"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "operator_tokens" ADD CONSTRAINT "FK_808d18576980d049c2bc313d94d" FOREIGN KEY ("operator_id") REFERENCES "operators"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "operator_tokens" DROP CONSTRAINT "FK_808d18576980d049c2bc313d94d"`);
    await queryRunner.query(
      `ALTER TABLE "operator_sessions" DROP CONSTRAINT "FK_a1f1a9bd7a2f93c3f602b8d9202"`,
    );
    await queryRunner.query(`DROP INDEX "public"."IDX_57e69a40b40f5ccba6b22f79e9"`);
    await queryRunner.query(`ALTER TABLE "audit_log" DROP COLUMN "operator_id"`);
    await queryRunner.query(`DROP TABLE "sign_in_attempts"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_8c1996b67e9f31ab67847b8dd8"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_808d18576980d049c2bc313d94"`);
    await queryRunner.query(`DROP TABLE "operator_tokens"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_16b102b1ae15db8ee5ce6b3a1b"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_a1f1a9bd7a2f93c3f602b8d920"`);
    await queryRunner.query(`DROP TABLE "operator_sessions"`);
    await queryRunner.query(`DROP INDEX "public"."operators_oidc_identity"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_76a789d8c4408548aff1949162"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_1570f3d85c3ff08bb99815897a"`);
    await queryRunner.query(`DROP TABLE "operators"`);
  }
}
