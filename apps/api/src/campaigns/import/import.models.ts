import { Field, ID, Int, ObjectType } from '@nestjs/graphql';

@ObjectType({ description: 'One problem of a rejected line: where it is and what to fix.' })
export class ImportLineError {
  @Field(() => Int, { description: '1-based line number in the input.' })
  line: number;

  @Field({ description: 'Path of the offending field (usage.outputTokens, agents[2].start); (record) for the record as a whole, (line) when the line is not JSON.' })
  field: string;

  @Field({ description: 'What was expected and what was received.' })
  reason: string;
}

@ObjectType({ description: 'What an import of execution records did. linesRead = updated + unchanged + rejected + blank lines.' })
export class ImportResult {
  @Field(() => ID)
  campaignId: string;

  @Field(() => Int)
  linesRead: number;

  @Field(() => Int, { description: 'Always 0: an import fills executions the campaign planned, it never creates one.' })
  inserted: number;

  @Field(() => Int, { description: 'Lines that changed their execution\'s result.' })
  updated: number;

  @Field(() => Int, { description: 'Lines whose execution already held exactly this record.' })
  unchanged: number;

  @Field(() => Int, { description: 'Lines rejected (each has at least one entry in errors).' })
  rejected: number;

  @Field(() => [ImportLineError], { description: 'The first 1000 problems, in line order; rejected counts every rejected line.' })
  errors: ImportLineError[];
}
