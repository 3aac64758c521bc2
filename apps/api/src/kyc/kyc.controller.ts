import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import { FileInterceptor, type UploadedMultipartFile } from '@nestjs/platform-fastify/multipart';

import { Caller, RequireScope } from '../auth/decorators.js';
import type { Principal } from '../auth/principal.js';
import { MULTIPART_TYPE, TakesBody } from '../common/body-types.js';
import { checkDocumentFile, MAX_DOCUMENT_BYTES } from './document-file.js';
import { KycFormDto } from './dto/kyc-form.dto.js';
import { DOC_CATEGORY, UploadDocumentDto, UploadDocumentQuery } from './dto/upload-document.dto.js';
import { KycUploadInterceptor } from './kyc-upload.interceptor.js';
import { KycService } from './kyc.service.js';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/route.decorators.js';

/** The organisation's side of a user's KYC: documents, the form, and where it stands. */
@ApiTags('KYC')
@Controller('user/:orgUserId/kyc')
export class KycController {
  constructor(private readonly kyc: KycService) {}

  @ApiRoute({
    summary: "Get a user's KYC",
    description:
      "Where the user's KYC stands: its state, the documents (without content), the form and the operator's last decision.",
    data: 'KycStatus',
    errors: [404],
  })
  @Get()
  @RequireScope('MANAGE_USERS:READ')
  get(@Caller() caller: Principal, @Param('orgUserId') orgUserId: string) {
    return this.kyc.get(caller.orgId, orgUserId);
  }

  @ApiRoute({
    summary: 'Upload a KYC document',
    description:
      'Stores one document (PDF, JPEG or PNG, at most 10 MiB) sent as multipart/form-data in the field `file`, with `docCategory` and `docSubCategory`. The content must match the declared type; `sha256`, when given, must match the file.',
    data: 'KycStatus',
    errors: [404, 409, 413, 415],
  })
  @Post('documents')
  @HttpCode(200)
  @RequireScope('MANAGE_USERS:WRITE')
  @TakesBody(MULTIPART_TYPE)
  @ApiBody({
    schema: {
      type: 'object',
      required: ['docCategory', 'docSubCategory', 'file'],
      properties: {
        docCategory: { type: 'string', pattern: DOC_CATEGORY.source, example: 'IDENTITY' },
        docSubCategory: { type: 'string', pattern: DOC_CATEGORY.source, example: 'PASSPORT' },
        file: {
          type: 'string',
          ...({ contentMediaType: 'application/octet-stream' } as object),
          description: `The document: PDF, JPEG or PNG, at most ${MAX_DOCUMENT_BYTES} bytes`,
        },
      },
    },
  })
  @UseInterceptors(
    KycUploadInterceptor,
    FileInterceptor('file', {
      // files: 2, so that a second file is refused with its field's name rather than a count.
      limits: { fileSize: MAX_DOCUMENT_BYTES, files: 2, fields: 10, fieldSize: 1024, parts: 12 },
    }),
  )
  upload(
    @Caller() caller: Principal,
    @Param('orgUserId') orgUserId: string,
    @Query() query: UploadDocumentQuery,
    @Body() fields: UploadDocumentDto,
    @UploadedFile() file: UploadedMultipartFile | undefined,
  ) {
    // A signed upload must sign its file: the multipart body is outside the signature, the query is not.
    const checked = checkDocumentFile(file, query.sha256, caller.method === 'hmac');
    return this.kyc.uploadDocument(caller.orgId, orgUserId, fields, checked);
  }

  @ApiRoute({
    summary: 'Submit the KYC form',
    description:
      'Stores who the user is and where they live; together with the documents it completes what the operator reviews.',
    data: 'KycStatus',
    errors: [404, 409],
  })
  @Post('form')
  @HttpCode(200)
  @RequireScope('MANAGE_USERS:WRITE')
  submitForm(@Caller() caller: Principal, @Param('orgUserId') orgUserId: string, @Body() form: KycFormDto) {
    return this.kyc.submitForm(caller.orgId, orgUserId, form);
  }
}
