import { AgentConfigVersionEntity } from './agent-config-version.entity.js';
import { AgentConfigEntity } from './agent-config.entity.js';
import { BenchmarkVersionEntity } from './benchmark-version.entity.js';
import { BenchmarkEntity } from './benchmark.entity.js';
import { OrgSecretEntity } from './org-secret.entity.js';
import { TaskEntity, type Difficulty } from './task.entity.js';

export { AgentConfigEntity, AgentConfigVersionEntity, BenchmarkEntity, BenchmarkVersionEntity, OrgSecretEntity, TaskEntity, type Difficulty };
export const catalogEntities = [BenchmarkEntity, BenchmarkVersionEntity, TaskEntity, AgentConfigEntity, AgentConfigVersionEntity, OrgSecretEntity];
