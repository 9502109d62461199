package dev.rivus.agentkit.lease;

/**
 * The holder of a lease: the process that holds it, and the id of the handle within that process.
 *
 * @param process the holding process
 * @param handleId an id unique to one {@link Lease} handle; two acquisitions never share it
 */
public record HolderIdentity(ProcessIdentity process, String handleId) {

  /**
   * Validates the components.
   *
   * @param process see the class description
   * @param handleId see the class description
   * @throws IllegalArgumentException if a component is null or the handle id is empty
   */
  public HolderIdentity {
    if (process == null) {
      throw new IllegalArgumentException("process must not be null");
    }
    if (handleId == null || handleId.isEmpty()) {
      throw new IllegalArgumentException("handleId must not be null or empty");
    }
  }

  @Override
  public String toString() {
    return process + " handle " + handleId;
  }
}
