import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Registry } from 'prom-client';

import { Public } from '../auth/decorators.js';
import { RawResponse } from '../common/envelope.interceptor.js';
import { MetricsService } from './metrics.service.js';

@ApiTags('Operations')
@Controller()
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  /** For the Prometheus scraper: its text format, not the envelope. */
  @Get('metrics')
  @Public()
  @RawResponse()
  @Header('content-type', Registry.PROMETHEUS_CONTENT_TYPE)
  @ApiOperation({
    summary: 'Prometheus metrics',
    description:
      'Process metrics and http_request_duration_seconds by method, route and status, in the Prometheus text format.',
  })
  @ApiProduces(Registry.PROMETHEUS_CONTENT_TYPE)
  @ApiOkResponse({
    description: 'Prometheus text format',
    content: { [Registry.PROMETHEUS_CONTENT_TYPE]: { schema: { type: 'string' } } },
  })
  scrape(): Promise<string> {
    return this.metrics.metrics();
  }
}
