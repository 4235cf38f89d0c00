import type { Page } from '#libs/common';
import { Field, Int, ObjectType } from '@nestjs/graphql';
import type { Type } from '@nestjs/common';

@ObjectType()
export class PageInfo {
  @Field(() => String, { nullable: true, description: 'Pass as `after` to get the next page.' })
  endCursor: string | null;

  @Field()
  hasNextPage: boolean;
}

export interface ConnectionShape<T> extends Page<T> {}

/** A Relay-style connection type for `T`: edges with cursors, nodes, pageInfo, totalCount. */
export function Connection<T>(node: Type<T>, name = node.name): Type<ConnectionShape<T>> {
  @ObjectType(`${name}Edge`)
  class Edge {
    @Field()
    cursor: string;

    @Field(() => node)
    node: T;
  }

  @ObjectType(`${name}Connection`, { isAbstract: true })
  abstract class ConnectionType {
    @Field(() => [Edge])
    edges: Edge[];

    @Field(() => [node])
    nodes: T[];

    @Field(() => PageInfo)
    pageInfo: PageInfo;

    @Field(() => Int)
    totalCount: number;
  }
  return ConnectionType as unknown as Type<ConnectionShape<T>>;
}
