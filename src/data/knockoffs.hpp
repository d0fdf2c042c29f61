#pragma once
// Second-order Gaussian model-X knockoffs (Candès, Fan, Janson & Lv 2018), data.knockoffs = "gaussian": [TVS]
// §7.2 adds to the marketing data "227 normally distributed knockoffs ... generated using create.second_order ...
// using a Gaussian distribution with the same mean and covariance structure", and reads a knockoff's inclusion
// probability as a null feature's.
//
// The fit (over all rows given: a loaded period's rows, see with_gaussian_knockoffs):
//  * μ and Σ are the sample mean and covariance (divisor n − 1); a constant column (σ = 0) is its own knockoff;
//  * C is Σ on the correlation scale (of the non-constant columns). When C is singular or near singular (its smallest
//    eigenvalue below 1e-6: a duplicated column, n ≤ p), C is shrunk toward the identity, C* = δ I + (1 − δ) C, with
//    Ledoit & Wolf's (2004) δ computed on the standardised rows (target: the identity), raised if needed so that
//    λ_min(C*) ≥ 1e-6. R's create.second_order always shrinks (corpcor::cov.shrink); we use the sample covariance
//    whenever it is well conditioned;
//  * s, on the correlation scale (diag(s) on Σ's scale is s_j σ_j²), by one of two constructions:
//    - equicorrelated (data.knockoffs = "gaussian"): s_j = min(1, 2 λ_min(C*)) for every j, R's method = "equi";
//    - SDP (data.knockoffs = "gaussian-sdp"): maximise Σ s_j subject to 0 ≤ s_j ≤ 1 and 2C* − diag(s) ⪰ 0 (Candès et
//      al. 2018 §3.4.2), solved on the log barrier Σ s_j + μ log det(2C* − diag(s)) by exact coordinate steps
//      (s_j = 1/m_j − μ, m_j the j-th diagonal of (2C* − diag(s_{−j}))⁻¹, clipped to [0, 1]; rank-one updates of the
//      inverse) for μ = 10⁻¹ … 10⁻⁴. Costs O(p³) per sweep. R's default, method = "asdp", approximates this SDP
//      block by block. The equicorrelated s is tiny when a few columns are nearly collinear (diabetes: λ_min =
//      0.0086, so every knockoff correlates 0.983 with its original); the SDP keeps the other columns' s large;
//  * X̃ | X ~ N(μ + (X − μ) − (X − μ) Σ⁻¹ diag(s), 2 diag(s) − diag(s) Σ⁻¹ diag(s)), computed on the standardised
//    scale (z̃ = (I − diag(s) C*⁻¹) z + w, w ~ N(0, 2 diag(s) − diag(s) C*⁻¹ diag(s))) from the eigen-decomposition of
//    C*; the covariance of w has the square root with its eigenvalues clamped at 0 (s = 2 λ_min makes one of them 0).
// Row i of the sample draws its normals (one per non-constant column, in column order) from
// Rng::stream(seed, period, first_row + i, Knockoff), so any block of rows, rank or thread count gives the same values.
// The fit uses no OpenMP-threaded Eigen product (Eigen's blocked products change their last bits with the thread
// count), so it is also the same everywhere.
#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "data/dataset.hpp"
#include "data/source.hpp"

namespace bfs {

/// How s is chosen (see the header comment).
enum class KnockoffConstruction { Equicorrelated, Sdp };

/// The fitted model of the rows and the construction's s on it.
struct GaussianKnockoffModel {
  Eigen::VectorXd mean;         ///< μ (p)
  Eigen::VectorXd sd;           ///< σ (p); 0 for a constant column
  std::vector<Index> varying;   ///< the non-constant columns, ascending (the standardised scale's coordinates)
  Eigen::VectorXd s;            ///< s per varying column on the correlation scale (diag(s) on Σ's scale: s_j σ_j²)
  double shrinkage = 0.0;       ///< δ of C* = δ I + (1 − δ) C (0 = the sample correlation was used)
  double lambda_min = 0.0;      ///< smallest eigenvalue of C* (of C when not shrunk)
  Eigen::MatrixXd correlation;  ///< C*, the (shrunk) correlation of the varying columns (varying × varying)
  Eigen::MatrixXd shift;        ///< I − diag(s) C*⁻¹ (varying × varying)
  Eigen::MatrixXd noise_root;   ///< (2 diag(s) − diag(s) C*⁻¹ diag(s))^{1/2}, symmetric (varying × varying)
  /// Σ* = diag(σ) C* diag(σ) over all p columns (a constant column's row and column are 0).
  Eigen::MatrixXd covariance() const;
};

/// Fits the model to the rows of X (n × p, n ≥ 2; InputError naming `origin` otherwise).
GaussianKnockoffModel fit_gaussian_knockoffs(const Matrix& X, const std::string& origin,
                                             KnockoffConstruction construction = KnockoffConstruction::Equicorrelated);
/// The SDP's s for a correlation matrix C (positive definite) and its inverse (see the header comment).
Eigen::VectorXd sdp_knockoff_s(const Eigen::MatrixXd& correlation_inverse);
/// The knockoffs (n × p) of X's rows under `model`; row i draws from (seed, period, first_row + i, Knockoff).
Matrix sample_gaussian_knockoffs(const Matrix& X, const GaussianKnockoffModel& model, std::uint64_t seed, int period,
                                 std::int64_t first_row = 0);
/// Fits on data's first `columns` columns (all when < 0) and inserts their knockoffs, named knockoff_name(name),
/// right after them (before any later columns, e.g. noise). Returns the fitted model.
GaussianKnockoffModel append_gaussian_knockoffs(
    Dataset& data, std::uint64_t seed, int period, Index columns = -1,
    KnockoffConstruction construction = KnockoffConstruction::Equicorrelated);
/// "ko_" + name.
std::string knockoff_name(const std::string& name);

/// `inner` with Gaussian knockoffs of its data columns — all but its last `noise_features` (the noise columns, which
/// stay last) — inserted after them in every loaded period: period k's knockoffs are fitted on period k's rows (all
/// rows offline; one batch or period online) and drawn from (seed, k, row within the period, Knockoff). InputError
/// when a column already has a knockoff's name.
std::unique_ptr<DataSource> with_gaussian_knockoffs(
    std::unique_ptr<DataSource> inner, std::int64_t noise_features, std::uint64_t seed,
    KnockoffConstruction construction = KnockoffConstruction::Equicorrelated);

}  // namespace bfs
