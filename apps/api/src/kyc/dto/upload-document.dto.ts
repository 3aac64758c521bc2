import { IsDefined, IsOptional, IsString, Matches } from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export const DOC_CATEGORY = /^[A-Za-z0-9_.-]{1,64}$/;
const RULE = '1 to 64 characters among letters, digits and _ . -';

/** The text fields of POST /api/v1/user/{orgUserId}/kyc/documents (multipart/form-data, with `file`). */
export class UploadDocumentDto {
  /** What the document is for, e.g. IDENTITY or PROOF_OF_ADDRESS. */
  @IsDefined({ message: 'docCategory is required' })
  @IsString()
  @Matches(DOC_CATEGORY, { message: `docCategory must be ${RULE}` })
  @ApiProperty({ pattern: DOC_CATEGORY.source, description: 'What the document is for', example: 'IDENTITY' })
  docCategory!: string;

  /** Which document it is, e.g. PASSPORT or UTILITY_BILL. */
  @IsDefined({ message: 'docSubCategory is required' })
  @IsString()
  @Matches(DOC_CATEGORY, { message: `docSubCategory must be ${RULE}` })
  @ApiProperty({ pattern: DOC_CATEGORY.source, description: 'Which document it is', example: 'PASSPORT' })
  docSubCategory!: string;
}

/** The query of the upload. */
export class UploadDocumentQuery {
  /**
   * The SHA-256 of the file, lowercase hex. Optional; when given it must match. With the API key method it
   * is signed (the query is part of the signature, a multipart body is not), so the signature then covers
   * the file, and two different files sent in the same second have different signatures.
   */
  @IsOptional()
  @IsString()
  @Matches(/^[0-9a-f]{64}$/, { message: 'sha256 must be 64 lowercase hexadecimal digits' })
  @ApiPropertyOptional({
    pattern: '^[0-9a-f]{64}$',
    description:
      'The SHA-256 of the file, lowercase hex; when given it must match. The query is signed with the API key method, so the signature then covers the file',
  })
  sha256?: string;
}
