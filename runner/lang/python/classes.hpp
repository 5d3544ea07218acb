// A class model of Python files: classes with their bases resolved to classes of the same file
// set, their methods, the attributes each class assigns and reads through `self`, transitive
// subclasses and the methods that override a base method.
//
//   ClassModel cm;
//   for (auto& m : models) cm.add(*m);
//   cm.resolve();
//   for (size_t s : cm.subclasses(cm.find("Base")[0])) cm.classes()[s].qualified;
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "runner/lang/model.hpp"

namespace review::lang {

/// One use of `self.NAME` inside a method of a class.
struct AttributeUse {
  std::string method;   ///< the method's name ("__init__")
  int line = 0;         ///< 1-based line of the use
};

struct ClassInfo {
  std::string name;                 ///< "Attention"
  std::string qualified;            ///< "Outer.Attention" for a nested class
  std::string file;
  int line = 0, end_line = 0;
  std::vector<std::string> bases;   ///< base texts as written ("nn.Module", "Base")
  /// For each base, the index into ClassModel::classes() of the class it names, or -1 when it
  /// names no class of the file set (`nn.Module`) or more than one does with none in the same file.
  std::vector<int> resolved;
  std::vector<const Function*> methods;                                  ///< in line order
  std::unordered_map<std::string, std::vector<AttributeUse>> assigns;    ///< `self.NAME = …` (also +=, :=, annotated)
  std::unordered_map<std::string, std::vector<AttributeUse>> reads;      ///< `self.NAME` read (not as an assignment target)
};

/// The bare name a base text resolves by (ClassModel::resolve): its last dotted part before any
/// `[`, trailing blanks cut ("nn.Module" -> "Module", "Generic[T]" -> "Generic"); "" for a
/// keyword argument (`metaclass=…`), for `object` and for an empty text.
std::string base_name(std::string_view base);

class ClassModel {
 public:
  /// Adds the classes of one Python model (other languages are ignored). The model must outlive
  /// this object.
  void add(const SourceModel& m);
  /// Resolves the bases of every class added: a base's last dotted part names a class of the file
  /// set; a class of the same file wins, else the name must be unique. Call after the last add.
  void resolve();

  const std::vector<ClassInfo>& classes() const { return classes_; }
  /// Indices of the classes called `name` (bare name).
  std::vector<size_t> find(std::string_view name) const;
  /// Indices of every class that derives from class `c`, directly or not (each once, cycles cut).
  std::vector<size_t> subclasses(size_t c) const;
  /// Indices of every class `c` derives from, directly or not (resolved bases only).
  std::vector<size_t> ancestors(size_t c) const;
  /// The method `name` defined in class `c` itself, or nullptr.
  const Function* method(size_t c, std::string_view name) const;
  /// Whether `c` or one of its resolved ancestors assigns attribute `name` (or defines a method,
  /// property or class-level name of that name: a class-body assignment counts).
  bool provides(size_t c, std::string_view name) const;
  /// The class whose method `name` an instance of `c` runs: `c` itself when it defines it, else
  /// the first of ancestors(c) (nearest first, bases left to right: Python's MRO for single
  /// inheritance, an approximation of C3 for multiple) that does; -1 when none of the repository
  /// classes does (the method comes from an unresolved base or does not exist).
  int defining_class(size_t c, std::string_view name) const;
  /// Subclasses of `c` (transitive) that define method `name` themselves: its overrides, nearest
  /// generation first. Empty when `c` does not define `name` either.
  std::vector<size_t> overridden_by(size_t c, std::string_view name) const;
  /// Subclasses of `c` (transitive) that run `c`'s own method `name` unmodified: defining_class
  /// of each is `c`. Empty when `c` does not define `name`.
  std::vector<size_t> inherited_by(size_t c, std::string_view name) const;

 private:
  std::vector<ClassInfo> classes_;
  std::vector<const SourceModel*> models_;  // parallel to classes_
  std::unordered_map<std::string, std::vector<size_t>> by_name_;
  std::vector<std::vector<size_t>> children_;
};

}  // namespace review::lang
