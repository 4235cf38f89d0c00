import { AnnotationResultsService, AnnotationService, CodebookService, type CodebookVersionEntity } from '#libs/annotation';
import { Role, type Principal } from '#libs/identity';
import { Args, ID, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { CurrentPrincipal, RequireRole } from '../auth/auth.decorators.js';
import { PageArgs, pagedComplexity } from '../graphql/page.args.js';
import {
  AdjudicatedLabelInput,
  Adjudication,
  Annotation,
  AnnotationAssignment,
  AnnotationCampaign,
  AnnotationComment,
  AnnotationItem,
  AnnotationItemConnection,
  AnnotationProgress,
  AnnotationSuggestion,
  Codebook,
  CodebookVersion,
  CodebookVersionInput,
  CreateAnnotationCampaignInput,
  CreateCodebookInput,
  ImportedLabels,
  ImportedLabelsInput,
  LabelInput,
} from './annotation.models.js';

const versionView = (v: CodebookVersionEntity): CodebookVersion => ({ id: v.id, version: v.version, status: v.status, nodes: v.nodes, keyMap: v.keyMap, publishedAt: v.publishedAt });

/** Codebooks: the built-in starter and the org's own, versioned. */
@Resolver(() => Codebook)
export class CodebookResolver {
  constructor(private readonly codebookService: CodebookService) {}

  @RequireRole(Role.ANNOTATOR)
  @Query(() => [Codebook], { description: 'The built-in starter codebook and your organization\'s codebooks, with their versions.' })
  async codebooks(@CurrentPrincipal() principal: Principal): Promise<Codebook[]> {
    return (await this.codebookService.list(principal)).map((b) => ({ id: b.id, key: b.key, name: b.name, description: b.description, builtIn: b.orgId === null, versions: b.versions.map(versionView) }));
  }

  @RequireRole(Role.ADMIN)
  @Mutation(() => CodebookVersion, { description: 'A new codebook with its first version as a draft.' })
  async createCodebook(@CurrentPrincipal() principal: Principal, @Args('input') input: CreateCodebookInput): Promise<CodebookVersion> {
    return versionView(await this.codebookService.create(principal, input));
  }

  @RequireRole(Role.ADMIN)
  @Mutation(() => CodebookVersion, { description: 'The next version of a codebook, as a draft; keyMap maps the previous version\'s pattern keys to the new ones.' })
  async createCodebookVersion(@CurrentPrincipal() principal: Principal, @Args('codebook', { type: () => ID }) codebook: string, @Args('input') input: CodebookVersionInput) {
    return versionView(await this.codebookService.createVersion(principal, codebook, input));
  }

  @RequireRole(Role.ADMIN)
  @Mutation(() => CodebookVersion, { description: 'Edits a draft version (a published one never changes).' })
  async updateCodebookVersion(@CurrentPrincipal() principal: Principal, @Args('id', { type: () => ID }) id: string, @Args('input') input: CodebookVersionInput) {
    return versionView(await this.codebookService.updateDraft(principal, id, input));
  }

  @RequireRole(Role.ADMIN)
  @Mutation(() => CodebookVersion, { description: 'Publishes a draft: from then on it is immutable and can be used by annotation campaigns.' })
  async publishCodebookVersion(@CurrentPrincipal() principal: Principal, @Args('id', { type: () => ID }) id: string) {
    return versionView(await this.codebookService.publish(principal, id));
  }
}

/** Annotation campaigns, the labelling queue, adjudication and results. */
@Resolver(() => AnnotationCampaign)
export class AnnotationCampaignResolver {
  constructor(
    private readonly annotations: AnnotationService,
    private readonly annotationResults: AnnotationResultsService,
  ) {}

  @RequireRole(Role.MEMBER)
  @Mutation(() => AnnotationCampaign, { description: "Labels a run campaign's executions (default: every concurrent-mode one) with a published codebook version; runs the detectors for suggestions." })
  createAnnotationCampaign(@CurrentPrincipal() principal: Principal, @Args('input') input: CreateAnnotationCampaignInput) {
    return this.annotations.createCampaign(principal, {
      campaignId: input.campaign,
      codebookVersionId: input.codebookVersion,
      name: input.name,
      modes: input.modes,
      executionIds: input.executions,
      annotatorsPerItem: input.annotatorsPerItem,
      blind: input.blind,
      reservationMinutes: input.reservationMinutes,
    });
  }

  @RequireRole(Role.ANNOTATOR)
  @Query(() => [AnnotationCampaign])
  annotationCampaigns(@CurrentPrincipal() principal: Principal, @Args('campaign', { type: () => ID, nullable: true }) campaign?: string | null) {
    return this.annotations.listCampaigns(principal, campaign);
  }

  @RequireRole(Role.ANNOTATOR)
  @Query(() => AnnotationCampaign)
  annotationCampaign(@CurrentPrincipal() principal: Principal, @Args('id', { type: () => ID }) id: string) {
    return this.annotations.getCampaign(principal, id);
  }

  @ResolveField(() => AnnotationProgress)
  async progress(@Parent() campaign: AnnotationCampaign): Promise<AnnotationProgress> {
    const p = await this.annotations.progress(campaign.id);
    return { pending: p.pending, doubleCoded: p.double_coded, agreed: p.agreed, disagreed: p.disagreed, adjudicated: p.adjudicated, total: p.total };
  }

  @ResolveField(() => GraphQLJSONObject, {
    description: "libs/metrics on the stored labels: agreement (Cohen's kappa per pattern, pooled, by subcategory and category, with n and prevalence; slots 1 and 2, latest revisions, before adjudication), distribution of final labels per agent, and the detectors' precision and recall against final labels.",
  })
  results(@CurrentPrincipal() principal: Principal, @Parent() campaign: AnnotationCampaign) {
    return this.annotationResults.results(principal, campaign.id);
  }

  @ResolveField(() => AnnotationItemConnection, { complexity: pagedComplexity, description: 'The items, oldest first; `status` filters (e.g. ["disagreed"] for what awaits adjudication).' })
  items(
    @CurrentPrincipal() principal: Principal,
    @Parent() campaign: AnnotationCampaign,
    @Args() page: PageArgs,
    @Args('status', { type: () => [String], nullable: true, description: 'pending, double_coded, agreed, disagreed, adjudicated.' }) status?: string[] | null,
  ) {
    return this.annotations.listItems(principal, campaign.id, status ?? null, page);
  }

  @ResolveField(() => [GraphQLJSONObject], { description: 'Final labels (agreed or adjudicated) with rationale, one per execution: what `fanout annotations export` writes.' })
  finalLabels(@CurrentPrincipal() principal: Principal, @Parent() campaign: AnnotationCampaign) {
    return this.annotationResults.finalLabels(principal, campaign.id);
  }

  @RequireRole(Role.ADJUDICATOR)
  @Mutation(() => ImportedLabels, { description: 'Final labels done elsewhere, one per execution (recorded as adjudications, source new). All or nothing.' })
  importAnnotations(@CurrentPrincipal() principal: Principal, @Args('annotationCampaign', { type: () => ID }) id: string, @Args('lines', { type: () => [ImportedLabelsInput] }) lines: ImportedLabelsInput[]) {
    return this.annotationResults.importFinal(principal, id, lines.map((l) => ({ executionId: l.execution, labels: l.labels, rationale: l.rationale ?? undefined })));
  }
}

@Resolver(() => AnnotationItem)
export class AnnotationItemResolver {
  constructor(private readonly annotationService: AnnotationService) {}

  @RequireRole(Role.ANNOTATOR)
  @Mutation(() => AnnotationAssignment, { nullable: true, description: 'Reserves your next item (or returns the one you hold); null when none is left for you.' })
  async nextAnnotationItem(@CurrentPrincipal() principal: Principal, @Args('annotationCampaign', { type: () => ID }) id: string): Promise<AnnotationAssignment | null> {
    const next = await this.annotationService.nextItem(principal, id);
    return next ? { item: next.item, slot: next.assignment.slot, reservedUntil: next.assignment.reservedUntil } : null;
  }

  @RequireRole(Role.ANNOTATOR)
  @Query(() => AnnotationItem)
  async annotationItem(@CurrentPrincipal() principal: Principal, @Args('id', { type: () => ID }) id: string) {
    return (await this.annotationService.item(principal, id)).item;
  }

  @ResolveField(() => [Annotation], { description: 'Your own submissions on this item (all revisions).' })
  async myAnnotations(@CurrentPrincipal() principal: Principal, @Parent() item: AnnotationItem) {
    return (await this.annotationService.item(principal, item.id)).mine;
  }

  @ResolveField(() => [Annotation], { description: "Every annotator's submissions. Refused (FORBIDDEN) while the item is blind and not all have submitted." })
  annotations(@CurrentPrincipal() principal: Principal, @Parent() item: AnnotationItem) {
    return this.annotationService.annotationsOf(principal, item.id);
  }

  @ResolveField(() => [AnnotationSuggestion])
  suggestions(@CurrentPrincipal() principal: Principal, @Parent() item: AnnotationItem) {
    return this.annotationService.suggestionsOf(principal, item.id);
  }

  @ResolveField(() => [AnnotationComment], { description: 'The discussion (open once the item is double-coded).' })
  comments(@CurrentPrincipal() principal: Principal, @Parent() item: AnnotationItem) {
    return this.annotationService.comments(principal, item.id);
  }

  @ResolveField(() => Adjudication, { nullable: true })
  adjudication(@CurrentPrincipal() principal: Principal, @Parent() item: AnnotationItem) {
    return this.annotationService.adjudicationOf(principal, item.id);
  }

  @RequireRole(Role.ANNOTATOR)
  @Mutation(() => Annotation, { description: 'Submits your labels for an item you hold, or a correction (a new revision). Choose no_failure explicitly when nothing applies.' })
  submitAnnotation(@CurrentPrincipal() principal: Principal, @Args('item', { type: () => ID }) item: string, @Args('labels', { type: () => [LabelInput] }) labels: LabelInput[]) {
    return this.annotationService.submit(principal, item, labels);
  }

  @RequireRole(Role.ANNOTATOR)
  @Mutation(() => AnnotationComment)
  addAnnotationComment(@CurrentPrincipal() principal: Principal, @Args('item', { type: () => ID }) item: string, @Args('body') body: string) {
    return this.annotationService.comment(principal, item, body);
  }

  @RequireRole(Role.ADJUDICATOR)
  @Mutation(() => Adjudication, { description: 'The final labels of a disagreed item, each with its source (A, B, both, new), by an adjudicator who did not label it.' })
  adjudicateItem(
    @CurrentPrincipal() principal: Principal,
    @Args('item', { type: () => ID }) item: string,
    @Args('labels', { type: () => [AdjudicatedLabelInput] }) labels: AdjudicatedLabelInput[],
    @Args('rationale') rationale: string,
  ) {
    return this.annotationService.adjudicate(principal, item, labels, rationale);
  }
}
