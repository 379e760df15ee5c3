import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';

/**
 * The y-websocket wire protocol (what a stock `WebsocketProvider` speaks):
 * each binary message starts with a varuint type; sync messages carry a
 * y-protocols sync message, awareness messages an awareness update.
 */
export const MESSAGE_SYNC = 0;
export const MESSAGE_AWARENESS = 1;
export const MESSAGE_AUTH = 2;
export const MESSAGE_QUERY_AWARENESS = 3;

export function syncStep1Message(doc: Y.Doc): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, MESSAGE_SYNC);
  syncProtocol.writeSyncStep1(encoder, doc);
  return encoding.toUint8Array(encoder);
}

export function updateMessage(update: Uint8Array): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, MESSAGE_SYNC);
  syncProtocol.writeUpdate(encoder, update);
  return encoding.toUint8Array(encoder);
}

export function awarenessMessage(awareness: awarenessProtocol.Awareness, clients: number[]): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, MESSAGE_AWARENESS);
  encoding.writeVarUint8Array(encoder, awarenessProtocol.encodeAwarenessUpdate(awareness, clients));
  return encoding.toUint8Array(encoder);
}

export interface MessageTarget {
  doc: Y.Doc;
  awareness: awarenessProtocol.Awareness;
  /** The transaction origin of what this peer changes. */
  origin: object;
  /** Whether the peer's document changes are applied (read-only peers' are dropped). */
  writable: boolean;
}

/**
 * Handles one message from a peer and returns the reply, if any, and whether
 * it answered the peer's sync step 1 (the reply then holds the whole document
 * the peer lacks). Throws on a message that is not the protocol; the caller
 * closes that connection.
 */
export function handleMessage(message: Uint8Array, target: MessageTarget): { reply: Uint8Array | null; answeredStep1: boolean } {
  const decoder = decoding.createDecoder(message);
  const encoder = encoding.createEncoder();
  const type = decoding.readVarUint(decoder);
  let answeredStep1 = false;
  switch (type) {
    case MESSAGE_SYNC: {
      encoding.writeVarUint(encoder, MESSAGE_SYNC);
      const syncType = decoding.readVarUint(decoder);
      if (syncType === syncProtocol.messageYjsSyncStep1) {
        syncProtocol.readSyncStep1(decoder, encoder, target.doc);
        answeredStep1 = true;
      } else if (syncType === syncProtocol.messageYjsSyncStep2 || syncType === syncProtocol.messageYjsUpdate) {
        const update = decoding.readVarUint8Array(decoder);
        // Applied directly rather than through readSyncStep2, which logs a bad update to the console and goes on.
        if (target.writable) Y.applyUpdate(target.doc, update, target.origin);
      } else {
        throw new Error(`unknown sync message type ${syncType}`);
      }
      break;
    }
    case MESSAGE_AWARENESS:
      awarenessProtocol.applyAwarenessUpdate(target.awareness, decoding.readVarUint8Array(decoder), target.origin);
      break;
    case MESSAGE_QUERY_AWARENESS:
      return { reply: awarenessMessage(target.awareness, [...target.awareness.getStates().keys()]), answeredStep1 };
    case MESSAGE_AUTH:
      // Permissions are settled when the connection opens; clients do not send auth messages.
      break;
    default:
      throw new Error(`unknown message type ${type}`);
  }
  return { reply: encoding.length(encoder) > 1 ? encoding.toUint8Array(encoder) : null, answeredStep1 };
}
