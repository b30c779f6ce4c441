! A module with shared arrays, a module PARAMETER for the bounds and
! module procedures: the shape of the mini-apps' kernels.
module heat_mod
  implicit none
  integer, parameter :: dp = selected_real_kind(15, 307)
  integer, parameter :: n = 64
  real(dp), allocatable :: u(:, :), unew(:, :)
  real(dp) :: total
  integer :: steps = 0
contains
  subroutine init()
    integer :: i, j
    allocate(u(n, n), unew(n, n))
    do j = 1, n
      do i = 1, n
        u(i, j) = real(mod(i * 7 + j * 3, 11), dp)
        unew(i, j) = 0.0_dp
      end do
    end do
  end subroutine init

  subroutine sweep()
    integer :: i, j
    do j = 2, n - 1
      do i = 2, n - 1
        unew(i, j) = 0.25_dp * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1))
      end do
    end do
    do j = 2, n - 1
      do i = 2, n - 1
        u(i, j) = unew(i, j)
      end do
    end do
    steps = steps + 1
  end subroutine sweep
end module heat_mod
