// Dashboard links and sessions within their creator's rights (docs/dashboard.md#what-a-session-may-do):
// each records the pages it may show and the API key or OAuth client that asked for it, so a session
// ends when that credential is revoked. A session or link from before recorded neither and was never
// checked against its creator's scopes: it is ended here (its people sign in again with a new link).
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class DashboardSessionCreators1796810000000 implements MigrationInterface {
  name = 'DashboardSessionCreators1796810000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['dashboard_links', 'dashboard_sessions']) {
      await queryRunner.query(`ALTER TABLE "${table}" ADD "pages" text array NOT NULL DEFAULT '{}'`);
      await queryRunner.query(`ALTER TABLE "${table}" ALTER COLUMN "pages" DROP DEFAULT`);
      await queryRunner.query(`ALTER TABLE "${table}" ADD "api_key_id" uuid`);
      await queryRunner.query(`ALTER TABLE "${table}" ADD "oauth_client_id" uuid`);
      await queryRunner.query(
        `ALTER TABLE "${table}" ADD CONSTRAINT "${table}_one_creator" CHECK (num_nonnulls("api_key_id", "oauth_client_id") <= 1)`,
      );
    }
    await queryRunner.query(`UPDATE "dashboard_sessions" SET "ended_at" = now() WHERE "ended_at" IS NULL`);
    await queryRunner.query(
      `UPDATE "dashboard_links" SET "expires_at" = now() WHERE "used_at" IS NULL AND "expires_at" > now()`,
    );
    await queryRunner.query(
      `ALTER TABLE "dashboard_links" ADD CONSTRAINT "FK_02e29e323c78959bc45fe79aee9" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "dashboard_links" ADD CONSTRAINT "FK_0db7c5c6e175366648a7920c7e5" FOREIGN KEY ("oauth_client_id") REFERENCES "oauth_clients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "dashboard_sessions" ADD CONSTRAINT "FK_595f72334fa4191483eb0fb9ae8" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "dashboard_sessions" ADD CONSTRAINT "FK_5526c42fa3acfa0d24c5e03ad60" FOREIGN KEY ("oauth_client_id") REFERENCES "oauth_clients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "dashboard_sessions" DROP CONSTRAINT "FK_5526c42fa3acfa0d24c5e03ad60"`,
    );
    await queryRunner.query(
      `ALTER TABLE "dashboard_sessions" DROP CONSTRAINT "FK_595f72334fa4191483eb0fb9ae8"`,
    );
    await queryRunner.query(`ALTER TABLE "dashboard_links" DROP CONSTRAINT "FK_0db7c5c6e175366648a7920c7e5"`);
    await queryRunner.query(`ALTER TABLE "dashboard_links" DROP CONSTRAINT "FK_02e29e323c78959bc45fe79aee9"`);
    for (const table of ['dashboard_sessions', 'dashboard_links']) {
      await queryRunner.query(`ALTER TABLE "${table}" DROP CONSTRAINT "${table}_one_creator"`);
      await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "oauth_client_id"`);
      await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "api_key_id"`);
      await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "pages"`);
    }
  }
}
