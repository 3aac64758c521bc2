// The audit log by operator e-mail (docs/console.md, the audit log): an operator's entries carry their
// e-mail, which never changes, as the actor; the index keeps a search for a rare actor from reading the
// whole log.
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AuditLogActorIndex1797600000000 implements MigrationInterface {
  name = 'AuditLogActorIndex1797600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "IDX_b24e98ef90e2b356263d4487e4" ON "audit_log" ("actor") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_b24e98ef90e2b356263d4487e4"`);
  }
}
