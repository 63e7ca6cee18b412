/**
 * The ActionPlan record format shared by the owner and the input helper:
 * what the owner's {@code ActionPlanner} produces from a validated batch and the helper
 * executes, and the completion the helper sends back.
 *
 * <ul>
 *   <li>{@link dev.saccade.protocol.plan.ActionPlanFlyweight}: a 64-byte header, then
 *       {@code command_count} fixed 32-byte {@link dev.saccade.protocol.plan.PlanCommandFlyweight}
 *       records, then {@code text_size} bytes of UTF-8 text;</li>
 *   <li>{@link dev.saccade.protocol.plan.PlanOp}: the command opcodes and the arguments of each;</li>
 *   <li>{@link dev.saccade.protocol.plan.ActionPlanEncoder}: writes a plan, allocation-free;</li>
 *   <li>{@link dev.saccade.protocol.plan.PlanCompletionFlyweight}: the helper's 80-byte answer,
 *       with the ABI's PhysicalState embedded;</li>
 *   <li>{@link dev.saccade.protocol.plan.PlanValidator}: validates either record as received,
 *       reading nothing outside it, like any wire message.</li>
 * </ul>
 *
 * <p>Plans never leave the machine and never reach an agent: they travel only over the
 * shared-memory rings of {@code dev.saccade.ipc.link}. All integers are little-endian.
 */
package dev.saccade.protocol.plan;
