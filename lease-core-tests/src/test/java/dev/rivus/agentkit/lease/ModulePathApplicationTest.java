/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rivus.agentkit.lease.file.FileLeaseRepository;
import dev.rivus.agentkit.lease.testsupport.ChildJvm;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An application on the module path compiles and runs with the core and the file repository alone:
 * no JSpecify (its annotations are {@code requires static}), nothing the modules do not declare;
 * and one that requires only the core finds the file store as a service.
 */
class ModulePathApplicationTest {

  @TempDir Path work;

  @Test
  void anApplicationOnTheModulePathNeedsNoJSpecify() throws Exception {
    String output =
        compileAndRun(
            """
            module example.app {
              requires dev.rivus.agentkit.lease;
              requires dev.rivus.agentkit.lease.file;
            }
            """,
            """
            package example;

            import dev.rivus.agentkit.lease.Lease;
            import dev.rivus.agentkit.lease.LeaseManager;
            import dev.rivus.agentkit.lease.file.FileLeaseRepository;
            import java.nio.file.Path;

            public class Main {
              public static void main(String[] args) throws Exception {
                try (var repository = FileLeaseRepository.open(Path.of(args[0]));
                    LeaseManager leases = LeaseManager.builder(repository).build();
                    Lease lease = leases.acquire("module-path")) {
                  System.out.println("held " + lease.key() + " " + lease.runFenced(t -> t.generation()));
                }
              }
            }
            """);

    assertThat(output).startsWith("held module-path ");
  }

  @Test
  void anApplicationThatRequiresOnlyTheCoreFindsTheFileStoreByItsScheme() throws Exception {
    // The file module is on the module path, required by nobody: its provider binds it.
    String output =
        compileAndRun(
            """
            module example.app {
              requires dev.rivus.agentkit.lease;
            }
            """,
            """
            package example;

            import dev.rivus.agentkit.lease.Lease;
            import dev.rivus.agentkit.lease.LeaseManager;
            import dev.rivus.agentkit.lease.spi.LeaseStores;

            public class Main {
              public static void main(String[] args) throws Exception {
                LeaseStores stores = LeaseStores.installed();
                try (var repository = stores.open("dir:" + args[0]);
                    LeaseManager leases = LeaseManager.builder(repository).build();
                    Lease lease = leases.acquire("by-scheme")) {
                  System.out.println("held " + lease.key() + " on " + stores.schemes());
                }
              }
            }
            """);

    assertThat(output).startsWith("held by-scheme on [dir]");
  }

  /** Compiles the application on the module path and runs it on a directory of leases. */
  private String compileAndRun(String moduleInfo, String main) throws Exception {
    Path sources = work.resolve("src");
    Path app = sources.resolve("app/example");
    Files.createDirectories(app);
    Files.writeString(sources.resolve("app/module-info.java"), moduleInfo);
    Files.writeString(app.resolve("Main.java"), main);
    String modulePath = modulePath();
    assertThat(modulePath).doesNotContain("jspecify");

    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    Path classes = work.resolve("classes");
    int compiled =
        javac.run(
            null,
            diagnostics,
            diagnostics,
            "-Werror",
            "--release",
            "17",
            "--module-path",
            modulePath,
            "-d",
            classes.toString(),
            sources.resolve("app/module-info.java").toString(),
            app.resolve("Main.java").toString());
    assertThat(compiled).as("javac: %s", diagnostics.toString(StandardCharsets.UTF_8)).isZero();

    Process run =
        new ProcessBuilder(
                ChildJvm.javaBinary(),
                "--module-path",
                modulePath + File.pathSeparator + classes,
                "--module",
                "example.app/example.Main",
                work.resolve("leases").toString())
            .redirectErrorStream(true)
            .start();
    assertThat(run.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String output = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(run.exitValue()).as(output).isZero();
    return output;
  }

  /** The core, the file repository and Jackson, where this build put them; nothing else. */
  private static String modulePath() {
    return Stream.of(
            LeaseManager.class,
            FileLeaseRepository.class,
            ObjectMapper.class,
            JsonFactory.class,
            JsonProperty.class)
        .map(ModulePathApplicationTest::location)
        .map(Path::toString)
        .collect(Collectors.joining(File.pathSeparator));
  }

  private static Path location(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
