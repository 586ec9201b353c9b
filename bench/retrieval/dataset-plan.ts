import { seededRandom, zipfSampler } from './random.ts';

/**
 * The shape of the synthetic corpus. Vectors are built in the database as sums of random
 * components with these norms (each uniform noise in 1,536 dimensions):
 *
 *   passage = topic + shared document + this workspace's copy + passage noise
 *   query   = topic + shared document + query noise
 *
 * Topics are popular or not (Zipf); each topic has a pool of shared documents, and many
 * workspaces save the same document (as Discord communities about one game save the same wiki
 * page), each with its own small variation. A query asks about a document its workspace saved,
 * phrased generically, so other workspaces' copies are as close to it as the workspace's own:
 * the tenant filter, not the geometry, decides what the right answer is. Cosine similarity of a
 * query to the passages that answer it is about 0.8, to other documents on the topic about 0.6.
 */
export const SHAPE = {
  topics: 200,
  topicZipfS: 1,
  documentsPerTopic: 40,
  passagesPerDocument: { min: 5, max: 30 },
  maxTopicsPerWorkspace: 8,
  norms: { topic: 1, document: 0.6, workspaceCopy: 0.3, passage: 0.5, query: 0.6 },
} as const;

export interface Bucket {
  label: string;
  min: number;
  max: number;
}

export const BUCKETS: readonly Bucket[] = [
  { label: '1-10', min: 1, max: 10 },
  { label: '11-100', min: 11, max: 100 },
  { label: '101-1,000', min: 101, max: 1_000 },
  { label: '1,001-10,000', min: 1_001, max: 10_000 },
  { label: '>10,000', min: 10_001, max: Number.POSITIVE_INFINITY },
];

export function bucketOf(rows: number): string {
  const bucket = BUCKETS.find((b) => rows >= b.min && rows <= b.max);
  if (!bucket) throw new Error(`no bucket for ${rows} rows`);
  return bucket.label;
}

export interface ArtifactPlan {
  /** Index into the global pool of shared documents (topic * documentsPerTopic + n). */
  document: number;
  passages: number;
}

export interface WorkspacePlan {
  index: number;
  rows: number;
  bucket: string;
  artifacts: ArtifactPlan[];
}

/**
 * on-topic: about a document the workspace saved. off-topic: about a document other workspaces
 * saved, on a topic this one never touched (the question a server asks before it has saved the
 * answer): the filtered index scan then has to walk past everyone else's passages.
 */
export type QueryKind = 'on-topic' | 'off-topic';

export interface QueryPlan {
  index: number;
  workspace: number;
  bucket: string;
  kind: QueryKind;
  /** The shared document the question is about. */
  document: number;
}

/** Off-topic questions per bucket, for every four on-topic ones. */
export const offTopicPerBucket = (queriesPerBucket: number): number => Math.ceil(queriesPerBucket / 4);

export interface DatasetPlan {
  workspaces: WorkspacePlan[];
  queries: QueryPlan[];
}

/** Workspace sizes by rank: size(r) ~ r^-s, summing exactly to `total`, at least one passage each. */
export function zipfSizes(count: number, total: number, s: number): number[] {
  const weights = Array.from({ length: count }, (_, i) => (i + 1) ** -s);
  const sum = weights.reduce((a, b) => a + b, 0);
  const sizes = weights.map((w) => Math.max(1, Math.floor((total * w) / sum)));
  const short = total - sizes.reduce((a, b) => a + b, 0);
  const largest = (sizes[0] ?? 0) + short; // the rounding remainder goes to the largest
  if (largest < 1) throw new Error(`cannot give ${count} workspaces ${total} passages`);
  sizes[0] = largest;
  return sizes;
}

export function planDataset(options: { workspaces: number; chunks: number; zipfS: number; seed: number; queriesPerBucket: number }): DatasetPlan {
  const random = seededRandom(options.seed);
  const topicOf = zipfSampler(SHAPE.topics, SHAPE.topicZipfS, random);
  const { min, max } = SHAPE.passagesPerDocument;

  const topicsOf = new Map<number, Set<number>>();
  const workspaces = zipfSizes(options.workspaces, options.chunks, options.zipfS).map((rows, index): WorkspacePlan => {
    // Larger communities talk about more things.
    const topicCount = Math.min(SHAPE.maxTopicsPerWorkspace, 1 + Math.floor(Math.log2(1 + rows / 200)));
    const topics = new Set<number>();
    while (topics.size < topicCount) topics.add(topicOf());
    topicsOf.set(index, topics);
    const topicList = [...topics];
    const artifacts: ArtifactPlan[] = [];
    for (let left = rows; left > 0; ) {
      const passages = Math.min(left, min + random.int(max - min + 1));
      const topic = random.pick(topicList);
      artifacts.push({ document: topic * SHAPE.documentsPerTopic + random.int(SHAPE.documentsPerTopic), passages });
      left -= passages;
    }
    return { index, rows, bucket: bucketOf(rows), artifacts };
  });

  // Queries spread over as many workspaces of each bucket as there are queries.
  const saved = [...new Set(workspaces.flatMap((w) => w.artifacts.map((a) => a.document)))];
  const queries: QueryPlan[] = [];
  for (const bucket of BUCKETS) {
    const members = random.shuffle(workspaces.filter((w) => w.bucket === bucket.label));
    if (members.length === 0) continue;
    const add = (i: number, kind: QueryKind): void => {
      const workspace = members[i % members.length] as WorkspacePlan;
      const own = topicsOf.get(workspace.index) ?? new Set<number>();
      const document =
        kind === 'on-topic'
          ? random.pick(workspace.artifacts).document
          : random.pick(saved.filter((d) => !own.has(Math.floor(d / SHAPE.documentsPerTopic))));
      queries.push({ index: queries.length, workspace: workspace.index, bucket: bucket.label, kind, document });
    };
    for (let i = 0; i < options.queriesPerBucket; i++) add(i, 'on-topic');
    for (let i = 0; i < offTopicPerBucket(options.queriesPerBucket); i++) add(i, 'off-topic');
  }
  return { workspaces, queries };
}
