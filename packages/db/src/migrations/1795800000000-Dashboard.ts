// The organisation dashboard (docs/dashboard.md): single-use sign-in links and the sessions they start,
// both stored as hashes of their tokens; and when each API key and OAuth client was last used, which its
// page shows.
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Dashboard1795800000000 implements MigrationInterface {
  name = 'Dashboard1795800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "dashboard_links" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "org_id" integer NOT NULL, "token_hash" text NOT NULL, "permissions" text array NOT NULL, "session_seconds" integer NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_d8be1565760a90b5dc782bcca82" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_30ea10b89de3f463a825ac5007" ON "dashboard_links"  ("org_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_8beb3fa3e3d239066e15253021" ON "dashboard_links"  ("token_hash") `,
    );
    await queryRunner.query(
      `CREATE TABLE "dashboard_sessions" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "org_id" integer NOT NULL, "token_hash" text NOT NULL, "permissions" text array NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "ended_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_09c60e2bedb298d55d575d12503" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_3f7152a55084edf0e66eb48d06" ON "dashboard_sessions"  ("org_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_611ce320a648a5fb2b0087bb3e" ON "dashboard_sessions"  ("token_hash") `,
    );
    await queryRunner.query(`ALTER TABLE "api_keys" ADD "last_used_at" TIMESTAMP(3) WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "oauth_clients" ADD "last_used_at" TIMESTAMP(3) WITH TIME ZONE`);
    await queryRunner.query(
      `ALTER TABLE "dashboard_links" ADD CONSTRAINT "FK_30ea10b89de3f463a825ac50071" FOREIGN KEY ("org_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "dashboard_sessions" ADD CONSTRAINT "FK_3f7152a55084edf0e66eb48d065" FOREIGN KEY ("org_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "dashboard_sessions" DROP CONSTRAINT "FK_3f7152a55084edf0e66eb48d065"`,
    );
    await queryRunner.query(`ALTER TABLE "dashboard_links" DROP CONSTRAINT "FK_30ea10b89de3f463a825ac50071"`);
    await queryRunner.query(`ALTER TABLE "oauth_clients" DROP COLUMN "last_used_at"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "last_used_at"`);
    await queryRunner.query(`DROP TABLE "dashboard_sessions"`);
    await queryRunner.query(`DROP TABLE "dashboard_links"`);
  }
}
