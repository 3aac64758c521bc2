// Sandbox organisations (docs/testing.md): the environment each organisation is created in, LIVE for every
// organisation that exists, and the test clocks of sandbox organisations.
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Sandbox1797700000000 implements MigrationInterface {
  name = 'Sandbox1797700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "organisations" ADD "environment" text NOT NULL DEFAULT 'LIVE'`);
    await queryRunner.query(
      `CREATE TABLE "sandbox_clocks" ("org_id" integer NOT NULL, "offset_ms" bigint NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_1b059d70819f63d78c5828ca4f4" PRIMARY KEY ("org_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "sandbox_clocks" ADD CONSTRAINT "FK_1b059d70819f63d78c5828ca4f4" FOREIGN KEY ("org_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "sandbox_clocks"`);
    await queryRunner.query(`ALTER TABLE "organisations" DROP COLUMN "environment"`);
  }
}
