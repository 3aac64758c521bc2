// Runs around the multipart parser of the upload route: refuses a body that is not multipart/form-data
// (415), and turns the parser's multer-style errors into messages that name the limit or the field.
import {
  BadRequestException,
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  PayloadTooLargeException,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { catchError, type Observable, throwError } from 'rxjs';

import { badRequest, unsupportedMediaType } from '../common/errors.js';
import { documentTooLarge } from './document-file.js';

@Injectable()
export class KycUploadInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'multipart/form-data') {
      throw unsupportedMediaType(
        'send multipart/form-data with the fields docCategory, docSubCategory and file',
      );
    }
    return next.handle().pipe(catchError((error: unknown) => throwError(() => describe(error))));
  }
}

function describe(error: unknown): unknown {
  if (error instanceof PayloadTooLargeException) return documentTooLarge();
  if (!(error instanceof BadRequestException)) return error;
  const [, problem = error.message, field] = /^(.+?)(?: - (.+))?$/.exec(error.message) ?? [];
  if (problem === 'Unexpected file field' || problem === 'Too many files') {
    const what =
      field === undefined ? 'too many files' : `unexpected file in the field ${JSON.stringify(field)}`;
    return badRequest(`${what}: send exactly one file, in the field "file"`);
  }
  return badRequest(`multipart body: ${field === undefined ? '' : `${field}: `}${problem}`);
}
