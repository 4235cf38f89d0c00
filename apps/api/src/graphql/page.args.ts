import { ArgsType, Field, Int } from '@nestjs/graphql';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

@ArgsType()
export class PageArgs {
  @Field(() => Int, { nullable: true, description: 'Page size, 1 to 100 (default 20).' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  first?: number;

  @Field(() => String, { nullable: true, description: 'The `pageInfo.endCursor` of the previous page.' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  after?: string;
}

/** Complexity of a list field: its children times the page size asked for. */
export const pagedComplexity = ({ args, childComplexity }: { args: { first?: number }; childComplexity: number }) =>
  1 + childComplexity * (args.first ?? 20);
