//! A JetStream stream made if missing, by whichever goref needs it first:
//! the one way every room gets a stream it writes to (the audience's, the
//! match's jobs and results, the workers' words that they live), and the
//! one way a durable consumer on it is made.

use std::time::Duration;

use async_nats::jetstream::{self, consumer, stream};

/// The stream `config` names, made if missing. Gorefs often start
/// together (a match and its workers, an event's boards), and the broker
/// may refuse the second of two makes that cross (as "subjects overlap"
/// with the first, being made): a refused make is looked up again, a few
/// times, before it is an error.
pub async fn made(
    js: &jetstream::Context,
    config: stream::Config,
) -> Result<stream::Stream, String> {
    let name = config.name.clone();
    let mut tries = 0;
    loop {
        match js.get_or_create_stream(config.clone()).await {
            Ok(stream) => return Ok(stream),
            Err(e) => {
                tokio::time::sleep(Duration::from_millis(200)).await;
                if let Ok(stream) = js.get_stream(&name).await {
                    return Ok(stream);
                }
                tries += 1;
                if tries == 3 {
                    return Err(format!("cannot make the stream {name}: {e}"));
                }
            }
        }
    }
}

/// The durable pull consumer `name` on `stream`, made if missing. A
/// stream another goref has only just made may still be refused as
/// "invalid stream" for a moment (JetStream's error 10012 while its
/// leader settles), so a refused make is tried again, a few times and a
/// little later each time, before it is an error.
pub async fn consumer_made(
    stream: &stream::Stream,
    name: &str,
    config: consumer::pull::Config,
) -> Result<consumer::PullConsumer, String> {
    let mut tries: u32 = 0;
    loop {
        match stream.get_or_create_consumer(name, config.clone()).await {
            Ok(consumer) => return Ok(consumer),
            Err(e) => {
                tries += 1;
                if tries == CONSUMER_TRIES {
                    return Err(format!("cannot make the consumer {name}: {e}"));
                }
                tokio::time::sleep(Duration::from_millis(200) * tries).await;
            }
        }
    }
}

/// How many times a consumer's make is tried: over 2 s in all.
const CONSUMER_TRIES: u32 = 5;
