#pragma once
// What an adapt asks of each patch. The flags come from the solution (criteria evaluated on the
// patches, host or device) and go to the forest: both sides see this type, neither the other.
namespace tessera::amr {

enum class AdaptFlag : signed char { Coarsen = -1, Keep = 0, Refine = 1 };

} // namespace tessera::amr
