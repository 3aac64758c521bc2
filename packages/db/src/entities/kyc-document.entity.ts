import { Column, Entity, JoinColumn, ManyToOne, Index, PrimaryGeneratedColumn } from 'typeorm';

import { User } from './user.entity.js';
import { CreatedAt } from './columns.js';

/** A file uploaded for a user's KYC. */
@Entity({ name: 'kyc_documents' })
export class KycDocument {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'org_id', type: 'integer' })
  orgId!: number;

  @Index()
  @Column({ name: 'user_id', type: 'bigint' })
  userId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ name: 'doc_category', type: 'text' })
  docCategory!: string;

  @Column({ name: 'doc_sub_category', type: 'text' })
  docSubCategory!: string;

  @Column({ name: 'file_name', type: 'text' })
  fileName!: string;

  @Column({ name: 'content_type', type: 'text' })
  contentType!: string;

  @Column({ name: 'size_bytes', type: 'integer' })
  sizeBytes!: number;

  @Column({ type: 'text' })
  sha256!: string;

  @Column({ type: 'bytea', select: false })
  content!: Buffer;

  @CreatedAt()
  createdAt!: Date;
}
