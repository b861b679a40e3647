// Starts mongo-java-server (in-memory backend) on 127.0.0.1:<port> (or $MONGO_BIND_HOST) for local tests.
//
//   java -cp '.infra/mongo/lib/*' infra/mongo/Launcher.java <port> [3.6|4.0|5.0]
//
// Prints "mongo-java-server ready on mongodb://127.0.0.1:<port> (...)" once it accepts
// connections, then runs until SIGTERM/SIGINT, on which it shuts down and prints
// "mongo-java-server stopped". Data lives in memory only and is gone after a restart.
//
// The reported server version (default 5.0, wire version 13) matters to drivers: recent
// MongoDB drivers refuse servers that report 3.6 (mongo-java-server's own default).
// mongo-java-server has no transactions and answers the legacy `ismaster` handshake, so
// clients must not set `serverApi` and must not rely on multi-document transactions.

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.ServerVersion;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;

import java.util.concurrent.CountDownLatch;

public class Launcher {
    public static void main(String[] args) throws Exception {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: java -cp '<lib>/*' Launcher.java <port> [3.6|4.0|5.0]");
            System.exit(2);
        }
        int port = Integer.parseInt(args[0]);
        String versionArg = args.length > 1 ? args[1] : "5.0";
        ServerVersion version = ServerVersion.valueOf("MONGO_" + versionArg.replace('.', '_'));

        MemoryBackend backend = new MemoryBackend();
        backend.version(version);
        MongoServer server = new MongoServer(backend);
        // MONGO_BIND_HOST: the address to listen on (the container image sets 0.0.0.0).
        String host = System.getenv().getOrDefault("MONGO_BIND_HOST", "127.0.0.1");
        server.bind(host, port);

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.shutdownNow();
            } finally {
                System.out.println("mongo-java-server stopped");
                System.out.flush();
                stopped.countDown();
            }
        }, "mongo-shutdown"));

        System.out.println("mongo-java-server ready on mongodb://" + host + ":" + port
                + " (server version " + versionArg + ", wire version " + version.getWireVersion()
                + ", pid " + ProcessHandle.current().pid() + ")");
        System.out.flush();
        stopped.await();
    }
}
