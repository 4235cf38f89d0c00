import { Module, type DynamicModule } from '@nestjs/common';
import { AgentConfigService } from './services/agent-config.service.js';
import { BenchmarkService } from './services/benchmark.service.js';
import { SECRET_BOX, SecretBox } from './services/secret-box.js';
import { SecretService } from './services/secret.service.js';

/** Benchmarks, tasks, agent configs and org secrets. */
@Module({})
export class CatalogModule {
  static register(options: { secretsKey: Buffer }): DynamicModule {
    return {
      module: CatalogModule,
      providers: [{ provide: SECRET_BOX, useValue: new SecretBox(options.secretsKey) }, BenchmarkService, AgentConfigService, SecretService],
      exports: [BenchmarkService, AgentConfigService, SecretService],
    };
  }
}
