// The sign-in attempt counters become the counters of every throttle (the token endpoint's too): the same
// rows under a name that says so.
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AttemptCounters1796400000000 implements MigrationInterface {
  name = 'AttemptCounters1796400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sign_in_attempts" RENAME TO "attempt_counters"`);
    await queryRunner.query(
      `ALTER TABLE "attempt_counters" RENAME CONSTRAINT "PK_df3d09968fb1f35413047cd2010" TO "PK_02a349cf172a0c5a28010135949"`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "attempt_counters" RENAME CONSTRAINT "PK_02a349cf172a0c5a28010135949" TO "PK_df3d09968fb1f35413047cd2010"`,
    );
    await queryRunner.query(`ALTER TABLE "attempt_counters" RENAME TO "sign_in_attempts"`);
  }
}
