//===- tia/Support/Plural.h - English plurals in messages -----------------===//
//
// tia's summaries count things ("merged 1 run with 8 results"); the noun
// takes an "s" for every count but one.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_SUPPORT_PLURAL_H
#define TIA_SUPPORT_PLURAL_H

namespace tia {

/// The ending of a noun counted \p Count times: "" for one, "s" otherwise
/// (zero included: "0 tests").
template <typename Number> const char *pluralS(Number Count) {
  return Count == 1 ? "" : "s";
}

} // namespace tia

#endif // TIA_SUPPORT_PLURAL_H
