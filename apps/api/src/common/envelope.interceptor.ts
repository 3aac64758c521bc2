// Wraps what a handler returns in the success envelope. Routes marked @RawResponse() (metrics, the
// OpenAPI document) answer as they are; nothing else is guessed.
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { successEnvelope } from '@svc/protocol';
import { map, type Observable } from 'rxjs';

import { routeMetadata } from './route-metadata.js';

export const RawResponse = Reflector.createDecorator<true>({ transform: () => true });

@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (routeMetadata(this.reflector, RawResponse, context)) return next.handle();
    return next.handle().pipe(map((data: unknown) => successEnvelope(data ?? {})));
  }
}

/**
 * The success envelope around `data` already written as JSON text, for the routes that write their answer
 * themselves (@RawResponse) so that a value in it reaches the caller exactly as stored.
 */
export function successEnvelopeText(dataJson: string): string {
  return `{"code":200,"data":${dataJson},"error":null}`;
}
