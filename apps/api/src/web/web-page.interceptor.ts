// Turns a page handler's WebAnswer into the answer: HTML with its status, or a 303 to the next page. Pages
// are never cached: they show an organisation's data to one session.
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { map, type Observable } from 'rxjs';

import type { WebAnswer } from './web-answer.js';

@Injectable()
export class WebPageInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler<WebAnswer>): Observable<string> {
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return next.handle().pipe(
      map((answer) => {
        void reply.header('cache-control', 'no-store');
        if (answer.kind === 'redirect') {
          void reply.code(303).header('location', answer.location);
          return '';
        }
        void reply.code(answer.status).type('text/html; charset=utf-8');
        return answer.html;
      }),
    );
  }
}
