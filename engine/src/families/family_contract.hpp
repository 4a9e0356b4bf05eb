// What a family's family.cpp fills its contract (gigacheck/family.hpp) with,
// when its record type derives from RecordEnvelope and has a loader and a
// report of its own: written once here.
#pragma once

#include "gigacheck/family.hpp"

#include <memory>
#include <string>

namespace gigacheck::contract {

// Family::loadRecord from the family's own loader.
template <class Record, Record (*load)(const std::string &)>
std::shared_ptr<const RecordEnvelope> loadRecordAs(const std::string &path) {
  return std::make_shared<const Record>(load(path));
}

// Family::report from the family's own report of its record type.
template <class Record, std::string (*report)(const Record &)>
std::string reportAs(const RecordEnvelope &record) {
  return report(static_cast<const Record &>(record));
}

// Family::saveRecord from the family's own writer of its record type.
template <class Record, void (*save)(const Record &, const std::string &)>
void saveRecordAs(const RecordEnvelope &record, const std::string &path) {
  save(static_cast<const Record &>(record), path);
}

// A FamilyRun over a configuration with `backend` and `device` fields (every family's): where
// it runs, written once.
template <class Config> class RunOf : public FamilyRun {
public:
  explicit RunOf(Config config) : config_(std::move(config)) {}
  BackendKind backend() const override { return config_.backend; }
  int device() const override { return config_.device; }
  void placeOn(BackendKind backend, int device) override {
    config_.backend = backend;
    config_.device = device;
  }

protected:
  Config config_;
};

} // namespace gigacheck::contract
