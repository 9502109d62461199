package dev.rivus.agentkit.lease.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code loadAll} lists exactly the records that {@code load} reads. */
class FileLeaseRepositoryLoadAllTest {

  @TempDir Path directory;

  @Test
  void listsEveryStoredRecordAndNothingElse() throws Exception {
    FileLeaseRepository repository = FileLeaseRepository.open(directory);
    LeaseSnapshot first = Samples.first("task:1");
    LeaseSnapshot released = Samples.first("../escape\nkey").released(Samples.NOW);
    repository.save("task:1", first, 0);
    repository.save(released.key(), Samples.first(released.key()), 0);
    repository.save(released.key(), released, 1);
    Files.writeString(directory.resolve("notes.json"), "not ours", StandardCharsets.UTF_8);
    Path stray = directory.resolve(RecordNames.baseName("elsewhere") + ".json");
    Files.copy(directory.resolve(RecordNames.baseName("task:1") + ".json"), stray);

    assertThat(repository.loadAll()).containsExactlyInAnyOrder(first, released);
  }

  @Test
  void listsNothingInAnEmptyDirectory() {
    assertThat(FileLeaseRepository.open(directory).loadAll()).isEmpty();
  }

  @Test
  void reportsACorruptRecordFileByName() throws Exception {
    FileLeaseRepository repository = FileLeaseRepository.open(directory);
    Path corrupt = directory.resolve(RecordNames.baseName("task:1") + ".json");
    Files.writeString(corrupt, "{\"key\": ", StandardCharsets.UTF_8);

    assertThatThrownBy(repository::loadAll)
        .isInstanceOf(LeaseRepositoryFailure.class)
        .hasMessageContaining(corrupt.toString());
  }
}
