import type { ExecutionContext } from '@nestjs/common';
import type { ReflectableDecorator, Reflector } from '@nestjs/core';

/** What a route (or its controller) declared with `decorator`, or undefined when it did not. */
export function routeMetadata<T>(
  reflector: Reflector,
  decorator: ReflectableDecorator<T>,
  context: ExecutionContext,
): T | undefined {
  const value: T | undefined = reflector.getAllAndOverride(decorator, [
    context.getHandler(),
    context.getClass(),
  ]);
  return value;
}
