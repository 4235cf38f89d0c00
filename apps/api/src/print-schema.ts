import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { GraphQLSchemaBuilderModule, GraphQLSchemaFactory } from '@nestjs/graphql';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { writeFileSync } from 'node:fs';
import { RESOLVERS } from './app.module.js';
import { IMPORT_RESOLVERS } from './campaigns/import/import.module.js';

/** Writes schema.gql (committed; a test checks it matches what the server serves). */
const app = await NestFactory.create(GraphQLSchemaBuilderModule, { logger: false });
await app.init();
const schema = await app.get(GraphQLSchemaFactory).create([...RESOLVERS, ...IMPORT_RESOLVERS]);
writeFileSync('schema.gql', printSchema(lexicographicSortSchema(schema)) + '\n');
await app.close();
console.error('wrote schema.gql');
