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
import { checkDocumentFile, MAX_DOCUMENT_BYTES } from './document-file.js';
import { KycFormDto } from './dto/kyc-form.dto.js';
import { UploadDocumentDto, UploadDocumentQuery } from './dto/upload-document.dto.js';
import { KycUploadInterceptor } from './kyc-upload.interceptor.js';
import { KycService } from './kyc.service.js';

/** The organisation's side of a user's KYC: documents, the form, and where it stands. */
@Controller('user/:orgUserId/kyc')
export class KycController {
  constructor(private readonly kyc: KycService) {}

  @Get()
  @RequireScope('MANAGE_USERS:READ')
  get(@Caller() caller: Principal, @Param('orgUserId') orgUserId: string) {
    return this.kyc.get(caller.orgId, orgUserId);
  }

  @Post('documents')
  @HttpCode(200)
  @RequireScope('MANAGE_USERS:WRITE')
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

  @Post('form')
  @HttpCode(200)
  @RequireScope('MANAGE_USERS:WRITE')
  submitForm(@Caller() caller: Principal, @Param('orgUserId') orgUserId: string, @Body() form: KycFormDto) {
    return this.kyc.submitForm(caller.orgId, orgUserId, form);
  }
}
