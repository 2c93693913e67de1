//! The accept loop: every connection is admitted under the connection cap, served as
//! HTTP/1.1 with a deadline for each request's headers, and closed when it must make
//! room; on the stop signal, no more are accepted and open ones finish their requests.

use std::convert::Infallible;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::Request;
use hyper::body::Incoming;
use hyper::service::Service as _;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::connections::{Admitted, Connections, TrackedBody};

/// A request's headers, start line included (nginx's default is as much); larger ones get
/// 431. Every connection may hold this much while its headers arrive.
const MAX_HEADER_BYTES: usize = 32 << 10;
/// A connection's read and write buffer (hyper's default, 400 KiB, would be 200 MB at 512
/// connections).
const MAX_BUFFER_BYTES: usize = 64 << 10;

/// Serves `app` on `listener` until `stop` completes, then waits for open connections to
/// finish their requests.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    connections: Arc<Connections>,
    header_timeout: Duration,
    stop: impl Future<Output = ()> + Send + 'static,
) {
    let stopping = CancellationToken::new();
    let mut stop = pin!(stop);
    // Each connection task holds a receiver; all are gone when every connection ended.
    let (all_closed, open) = watch::channel(());
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut stop => break,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(error) => {
                on_accept_error(&error, &connections).await;
                continue;
            }
        };
        let Some(admitted) = connections.admit() else {
            // Every connection has a request in progress: closed at once, not queued.
            drop(stream);
            continue;
        };
        let app = app.clone();
        let stopping = stopping.clone();
        let open = open.clone();
        tokio::spawn(async move {
            serve_connection(stream, app, admitted, header_timeout, stopping).await;
            drop(open);
        });
    }
    drop(listener);
    stopping.cancel();
    drop(open);
    all_closed.closed().await;
}

/// Out of file descriptors: close an idle connection to free one, else wait a moment.
/// Other errors (a connection reset before it was accepted) need nothing.
async fn on_accept_error(error: &std::io::Error, connections: &Connections) {
    let out_of_descriptors = matches!(
        rustix::io::Errno::from_io_error(error),
        Some(rustix::io::Errno::MFILE | rustix::io::Errno::NFILE)
    );
    if out_of_descriptors {
        let pause = if connections.evict_idlest() { 5 } else { 50 };
        // The evicted connection's task closes its socket in the meantime.
        tokio::time::sleep(Duration::from_millis(pause)).await;
    }
}

async fn serve_connection(
    stream: TcpStream,
    app: Router,
    admitted: Admitted,
    header_timeout: Duration,
    stopping: CancellationToken,
) {
    let _ = stream.set_nodelay(true);
    let admitted = Arc::new(admitted);
    let router = TowerToHyperService::new(app);
    let tracker = Arc::clone(&admitted);
    let service = hyper::service::service_fn(move |request: Request<Incoming>| {
        let in_progress = tracker.request_started();
        let response = router.call(request);
        async move {
            let response = response.await?;
            Ok::<_, Infallible>(response.map(|body| TrackedBody::new(body, in_progress)))
        }
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .max_header_size(MAX_HEADER_BYTES)
        .max_buf_size(MAX_BUFFER_BYTES);
    let mut connection = pin!(builder.serve_connection(TokioIo::new(stream), service));
    let mut draining = false;
    loop {
        tokio::select! {
            _ = connection.as_mut() => break,
            () = admitted.evicted() => break,
            () = stopping.cancelled(), if !draining => {
                draining = true;
                connection.as_mut().graceful_shutdown();
            }
        }
    }
}
