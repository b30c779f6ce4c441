! Allocatable arrays take the shape their ALLOCATEs give, when every
! ALLOCATE of the program gives the same constant bounds (NPB 3.4's field
! arrays): a call given RHS(1,J,K) then touches RHS(1:5,J,K), not the
! array from that element on.
module fields
  integer, parameter :: n = 12
  double precision, allocatable :: rhs(:, :, :), w(:, :)
end module fields

subroutine scale5(v)
  double precision :: v(5)
  integer :: m
  do m = 1, 5
    v(m) = v(m) * 2.0d0 + dble(m)
  end do
end subroutine scale5

subroutine solve
  use fields
  integer :: j, k
  do k = 1, n - 1
    do j = 0, n
      call scale5(rhs(1, j, k))
    end do
  end do
  ! W is allocated with two shapes: its first dimension is not known.
  do k = 1, 4
    call scale5(w(1, k))
  end do
end subroutine solve

program main
  use fields
  integer :: i, j, k
  double precision :: s
  double precision, allocatable :: tmp(:)
  allocate (rhs(5, 0:n, 0:n))
  allocate (w(5, 4))
  deallocate (w)
  allocate (w(6, 4))
  allocate (tmp(n))
  do k = 0, n
    do j = 0, n
      do i = 1, 5
        rhs(i, j, k) = dble(i + 2 * j + 3 * k)
      end do
    end do
  end do
  w = 1.0d0
  call solve
  s = 0.0d0
  do k = 0, n
    do j = 0, n
      do i = 1, 5
        s = s + rhs(i, j, k) * dble(mod(i + j + k, 7))
      end do
    end do
  end do
  do i = 1, n
    tmp(i) = dble(i)
  end do
  print *, s, sum(w), sum(tmp)
end program main
