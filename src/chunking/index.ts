export { type Block, type BlockKind, parseBlocks } from './blocks.js'
export { type Chunk, type ChunkOptions, chunkMarkdown } from './chunk-markdown.js'
