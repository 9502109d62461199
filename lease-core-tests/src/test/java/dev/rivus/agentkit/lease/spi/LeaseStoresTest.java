/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseConfigInvalid;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.file.FileLeaseRepository;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.sqlite.SqliteLeaseRepository;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The one door to the stores: the providers found on the class path (here {@code lease-file}'s and
 * {@code lease-sqlite}'s), a URI opened by the provider of its scheme, and the clear failure of a
 * scheme that none opens.
 */
class LeaseStoresTest {

  @TempDir Path temp;

  private final LeaseStores stores = LeaseStores.installed();

  @Test
  void theInstalledProvidersAreListedByScheme() {
    assertThat(stores.schemes()).containsExactly("dir", "sqlite");
    assertThat(stores).hasToString("LeaseStores[dir, sqlite]");
  }

  @Test
  void aSchemeNoProviderOpensFailsNamingTheKnownOnes() {
    assertThatThrownBy(() -> stores.open("redis://u:hunter2@cache:6379/0"))
        .isInstanceOfSatisfying(
            LeaseConfigInvalid.class, e -> assertThat(e.setting()).isEqualTo("scheme"))
        .hasMessage(
            "no lease store provider for scheme 'redis' (known: dir, sqlite): is its jar on the"
                + " class path?");
    assertThatThrownBy(() -> LeaseStores.of().open("redis://cache"))
        .hasMessageContaining("(known: none)");
  }

  @Test
  void aUriWithoutASchemeIsRefusedInTheCallersWordsWithoutQuotingIt() {
    assertThatThrownBy(() -> stores.open("/var/lib/leases.db"))
        .isInstanceOf(LeaseConfigInvalid.class)
        .hasMessage(
            "a store URI must be SCHEME:LOCATION, such as sqlite:PATH, dir:PATH or"
                + " jdbc:postgresql://HOST/DATABASE");
    assertThatThrownBy(
            () ->
                StoreRequest.builder("secret@nowhere")
                    .spelling(StoreRequest.LOCATION, "--store")
                    .build())
        .hasMessageStartingWith("--store must be SCHEME:LOCATION")
        .hasMessageNotContaining("secret");
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "dir"})
  void aUriOpensItsStoreCreatedOnFirstUseAndAReaderOpensItAgain(String scheme) throws Exception {
    Path store = temp.resolve("nested").resolve(scheme.equals("dir") ? "leases" : "leases.db");
    long generation;
    try (LeaseRepository writer = stores.open(scheme + ":" + store);
        LeaseManager leases = LeaseManager.builder(writer).build();
        Lease lease = leases.acquire("by-uri")) {
      generation = lease.generation();
      assertThat(writer)
          .isInstanceOf(
              scheme.equals("dir") ? FileLeaseRepository.class : SqliteLeaseRepository.class);
    }

    StoreRequest reader =
        StoreRequest.builder(scheme.toUpperCase(java.util.Locale.ROOT) + ":" + store)
            .create(false)
            .build();
    try (LeaseRepository read = stores.open(reader)) {
      assertThat(read.load("by-uri").orElseThrow().generation()).isEqualTo(generation);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "dir"})
  void aReaderOfAMissingStoreFailsAndCreatesNothing(String scheme) {
    Path store = temp.resolve("missing").resolve("leases");
    StoreRequest reader =
        StoreRequest.builder(scheme + ":" + store)
            .create(false)
            .spelling(StoreRequest.CALLER, "this command")
            .build();

    assertThatThrownBy(() -> stores.open(reader))
        .isInstanceOf(LeaseRepositoryFailure.class)
        .hasMessageContaining("no lease " + (scheme.equals("dir") ? "directory" : "database"))
        .hasMessageContaining(store.toString());
    assertThat(Files.exists(temp.resolve("missing"))).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "dir"})
  void theFileStoresHaveNoSettingsAndNeedALocation(String scheme) {
    assertThatThrownBy(
            () -> stores.open(StoreRequest.builder(scheme + ":x").setting("table", "t").build()))
        .isInstanceOf(LeaseConfigInvalid.class)
        .hasMessage("unknown setting 'table' for a " + scheme + ": store (it has none)");
    String what = scheme.equals("dir") ? "directory" : "database file";
    assertThatThrownBy(() -> stores.open(scheme + ":"))
        .isInstanceOf(LeaseConfigInvalid.class)
        .hasMessage("the URI names no " + what + ": write " + scheme + ":PATH");
    assertThatThrownBy(() -> stores.open(scheme + ":a\u0000b"))
        .isInstanceOf(LeaseConfigInvalid.class)
        .hasMessageStartingWith("the URI names no valid " + what + ": ");
  }

  @Test
  void givenProvidersAreTheOnlyOnesAndTheRequestReachesThemWhole() {
    List<StoreRequest> seen = new ArrayList<>();
    LeaseStoreProvider memory = provider("memory", seen);
    LeaseStores given = LeaseStores.of(memory);
    StoreRequest request =
        StoreRequest.builder("Memory:one").holding(true).setting("size", "3").build();

    assertThat(given.open(request)).isInstanceOf(MemoryLeaseRepository.class);
    assertThat(given.schemes()).containsExactly("memory");
    assertThat(seen).containsExactly(request);
    assertThat(request.scheme()).isEqualTo("memory");
    assertThat(request.location()).isEqualTo("one");
    assertThatThrownBy(() -> given.open("dir:/tmp")).hasMessageContaining("(known: memory)");
  }

  @Test
  void twoProvidersOfOneSchemeOrAnInvalidSchemeAreRefused() {
    List<StoreRequest> seen = new ArrayList<>();

    assertThatThrownBy(() -> LeaseStores.of(provider("a", seen), provider("a", seen)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("two providers of scheme 'a'");
    assertThatThrownBy(() -> LeaseStores.of(provider("Redis", seen)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageEndingWith("names no valid scheme: 'Redis'");
  }

  @Test
  void theSecretsOfAUriAreItsProvidersToFind() {
    LeaseStoreProvider secretive =
        new LeaseStoreProvider() {
          @Override
          public String scheme() {
            return "vault";
          }

          @Override
          public LeaseRepository open(StoreRequest request) {
            throw new UnsupportedOperationException();
          }

          @Override
          public List<String> secretsIn(String uri) {
            return List.of(uri.substring(uri.lastIndexOf('=') + 1));
          }
        };
    LeaseStores given = LeaseStores.of(secretive);

    assertThat(given.secretsIn("VAULT:x?token=t0k")).containsExactly("t0k");
    assertThat(given.secretsIn("vault", "no scheme?token=t1k")).containsExactly("t1k");
    assertThat(given.secretsIn("other:x?token=t0k")).isEmpty();
    assertThat(given.secretsIn("task 42")).isEmpty();
    assertThat(stores.secretsIn("sqlite:/tmp/x.db")).as("the default finds none").isEmpty();
  }

  private static LeaseStoreProvider provider(String scheme, List<StoreRequest> seen) {
    return new LeaseStoreProvider() {
      @Override
      public String scheme() {
        return scheme;
      }

      @Override
      public LeaseRepository open(StoreRequest request) {
        seen.add(request);
        return new MemoryLeaseRepository();
      }
    };
  }
}
