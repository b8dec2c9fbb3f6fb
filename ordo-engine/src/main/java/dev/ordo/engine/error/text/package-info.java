/**
 * Every client-visible error text, with Redis's exact wording, in one place ({@link
 * dev.ordo.engine.error.text.Errors}). Not API: exported to {@code dev.ordo.server} only;
 * embedders see the texts as the messages of {@link dev.ordo.engine.error.ErrorReply}.
 */
package dev.ordo.engine.error.text;
