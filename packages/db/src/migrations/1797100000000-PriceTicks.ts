// Price ticks: a pair's price as it changed, from operators and market-data feeds, kept for a retention
// (docs/configuration.md#market-data).
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class PriceTicks1797100000000 implements MigrationInterface {
  name = 'PriceTicks1797100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "price_ticks" ("id" BIGSERIAL NOT NULL, "symbol" text NOT NULL, "price" numeric(38,8) NOT NULL, "at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "source" text NOT NULL, CONSTRAINT "PK_price_ticks" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "price_ticks_symbol_at" ON "price_ticks" ("symbol", "at", "id") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."price_ticks_symbol_at"`);
    await queryRunner.query(`DROP TABLE "price_ticks"`);
  }
}
