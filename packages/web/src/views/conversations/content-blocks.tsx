import type { ContentBlock } from '@baton/core';
import { blockText } from '@baton/core/plain';
import { JsonBlock, Markdown } from '../../ui/markdown.js';

/**
 * Content blocks, each kind shown distinctly (DESIGN §1: tool calls, results
 * and thinking are first-class): text as markdown, thinking in a muted
 * aside, tool calls and results in labelled boxes.
 */
export function ContentBlocks({ blocks }: { blocks: readonly ContentBlock[] }) {
  return (
    <div className="blocks">
      {blocks.map((block, i) => (
        // Blocks never reorder within an immutable event: the index is a stable key.
        // biome-ignore lint/suspicious/noArrayIndexKey: immutable list
        <Block key={i} block={block} />
      ))}
    </div>
  );
}

function Block({ block }: { block: ContentBlock }) {
  switch (block.type) {
    case 'text':
      return <Markdown text={block.text} />;
    case 'thinking':
      return (
        <section className="block block-thinking" aria-label="Thinking">
          <header className="block-label">Thinking</header>
          <Markdown text={block.thinking} />
        </section>
      );
    case 'redacted_thinking':
      return (
        <section className="block block-thinking" aria-label="Thinking (redacted)">
          <header className="block-label">Thinking (redacted)</header>
        </section>
      );
    case 'tool_use':
    case 'server_tool_use':
      return (
        <section className="block block-tool-use" aria-label={`Tool use ${block.name}`}>
          <header className="block-label">
            {block.type === 'server_tool_use' ? 'Server tool' : 'Tool use'} <code>{block.name}</code>
            <span className="block-id">{block.id}</span>
          </header>
          <JsonBlock value={block.input} />
        </section>
      );
    case 'tool_result':
      return (
        <section className={`block block-tool-result${block.isError ? ' is-error' : ''}`} aria-label="Tool result">
          <header className="block-label">
            Tool result{block.isError ? ' (error)' : ''} <span className="block-id">{block.toolUseId}</span>
          </header>
          <pre className="plain">{blockText(block)}</pre>
        </section>
      );
    case 'web_search_tool_result':
      return (
        <section className="block block-tool-result" aria-label="Web search result">
          <header className="block-label">
            Web search result <span className="block-id">{block.toolUseId}</span>
          </header>
          <JsonBlock value={block.content} />
        </section>
      );
    case 'image':
      return block.uri ? (
        <img className="block-image" src={block.uri} alt="" />
      ) : (
        <img className="block-image" src={`data:${block.mediaType};base64,${block.data}`} alt="" />
      );
    case 'file':
      return (
        <p className="block-file">
          File:{' '}
          <a href={block.uri} target="_blank" rel="noreferrer">
            {block.name ?? block.uri}
          </a>
        </p>
      );
    case 'data':
      return (
        <section className="block block-data" aria-label="Data">
          <header className="block-label">Data</header>
          <JsonBlock value={block.data} />
        </section>
      );
    default:
      return null;
  }
}
