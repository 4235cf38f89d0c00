import type { ApolloServerPlugin } from '@apollo/server';
import type { AppConfig } from '#libs/config';
import type { ApolloDriverConfig } from '@nestjs/apollo';
import depthLimit from 'graphql-depth-limit';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import { fieldExtensionsEstimator, getComplexity, simpleEstimator } from 'graphql-query-complexity';
import type { DataSource } from 'typeorm';
import type { HttpMetrics } from '../ops/http-metrics.js';
import { createLoaders, type GraphqlContext } from './loaders.js';
import { responseCachePlugin } from './response-cache.plugin.js';

/** Refuses operations whose estimated cost (list fields count times their page size) is over the limit. */
function complexityLimit(max: number): ApolloServerPlugin {
  let schema: GraphQLSchema;
  return {
    async serverWillStart({ schema: s }) {
      schema = s;
    },
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document }) {
          let complexity: number;
          try {
            complexity = getComplexity({
              schema,
              operationName: request.operationName ?? undefined,
              query: document,
              variables: request.variables ?? {},
              estimators: [fieldExtensionsEstimator(), simpleEstimator({ defaultComplexity: 1 })],
            });
          } catch (err) {
            // It coerces variables first; a bad variable is the caller's error, with graphql-js' message
            // naming the path (`Variable "$input" got invalid value "X" at "input.role"`).
            if (err instanceof GraphQLError) throw new GraphQLError(err.message, { extensions: { code: 'BAD_USER_INPUT' } });
            throw err;
          }
          if (complexity > max) {
            throw new GraphQLError(`query complexity ${complexity} is over the limit of ${max}: ask for fewer fields or smaller pages`, {
              extensions: { code: 'QUERY_TOO_COMPLEX' },
            });
          }
        },
      };
    },
  };
}

function operationMetrics(metrics: HttpMetrics): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ operation, errors }) {
          metrics.graphqlOperations.inc({ type: operation?.operation ?? 'unknown', outcome: errors?.length ? 'error' : 'ok' });
        },
      };
    },
  };
}

export function graphqlOptions(config: AppConfig, dataSource: DataSource, metrics: HttpMetrics): ApolloDriverConfig {
  const responseCache = responseCachePlugin(dataSource, metrics.registry);
  return {
    path: '/graphql',
    autoSchemaFile: true,
    sortSchema: true,
    introspection: true,
    includeStacktraceInErrorResponses: false,
    // Nested field resolvers' errors go through the same ErrorFilter as queries (codes and fields, never INTERNAL_SERVER_ERROR).
    fieldResolverEnhancers: ['filters'],
    validationRules: [depthLimit(config.graphqlMaxDepth)],
    // The response cache answers in responseForOperation, after every plugin's didResolveOperation: a query the complexity limit refuses stays refused.
    plugins: [complexityLimit(config.graphqlMaxComplexity), operationMetrics(metrics), responseCache],
    // Its stored answers are written as JSON once, not on every hit.
    stringifyResult: (value) => responseCache.stringifyResult(value),
    context: ({ req, res }: Pick<GraphqlContext, 'req' | 'res'>): GraphqlContext => ({ req, res, loaders: createLoaders(dataSource) }),
  };
}
