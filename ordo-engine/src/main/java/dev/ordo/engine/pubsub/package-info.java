/**
 * Publish/subscribe: the registry of channel, pattern and shard channel subscriptions
 * ({@link dev.ordo.engine.pubsub.PubSub}), each client's own subscriptions
 * ({@link dev.ordo.engine.pubsub.Subscriptions}), and the in-process subscriber API
 * ({@link dev.ordo.engine.pubsub.Subscriber}). Everything here changes under the engine lock.
 */
package dev.ordo.engine.pubsub;
