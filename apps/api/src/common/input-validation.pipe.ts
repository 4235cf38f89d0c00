import { DomainException, ErrorCode, describe } from '#libs/common';
import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';

const VALIDATED = new Set<string>(['args', 'body', 'query', 'param']);
const PRIMITIVES = new Set<unknown>([String, Number, Boolean, Array, Object]);

/**
 * Validates decorated input classes and answers BAD_USER_INPUT naming the
 * field path (`input.name`), what was expected and what was received.
 */
@Injectable()
export class InputValidationPipe implements PipeTransform {
  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // Only what the caller sent: GraphQL arguments and REST bodies/queries,
    // not @Parent objects or values from our own param decorators.
    if (!VALIDATED.has(metadata.type)) return value;
    const type = metadata.metatype;
    if (!type || PRIMITIVES.has(type) || value == null || typeof value !== 'object') return value;
    const instance = plainToInstance(type, value);
    // A whole-arguments class (@Args() with no name) sees its siblings too
    // (`filter` beside `first`); GraphQL already refuses unknown arguments.
    const errors = await validate(instance as object, { whitelist: true, forbidNonWhitelisted: metadata.data !== undefined, validationError: { target: false } });
    if (errors.length > 0) {
      const [path, error] = firstLeaf(errors, metadata.data ?? '');
      const reason = Object.values(error.constraints ?? {})[0] ?? 'is invalid';
      // class-validator says "name must be ..."; the path replaces the bare property name.
      const message = `${path}: ${reason.replace(/^\S+ /, '')} (got ${describe(error.value)})`;
      throw new DomainException(ErrorCode.BAD_USER_INPUT, message, path);
    }
    return instance;
  }
}

function firstLeaf(errors: ValidationError[], prefix: string): [string, ValidationError] {
  const error = errors[0]!;
  const path = prefix ? `${prefix}.${error.property}` : error.property;
  return error.children?.length ? firstLeaf(error.children, path) : [path, error];
}
